# cmake -DHELP2MAN=... -DLOWDOWN=... -DMARKDOWN_DIR=... -DOUT_DIR=... -DSTAMP=... -DPROGRAMS=a|b|...
#       -DVERSION=... -P ManPages.cmake
# Writes into OUT_DIR/manS/ (then touches STAMP):
#   man1/NAME.1.gz for each program and man1/pbench-COMMAND.1.gz for each command `pbench --help`
#     lists: NAME, SYNOPSIS, DESCRIPTION and OPTIONS by help2man from their own --help (the NAME
#     line is the program's first help line, or the command's line in pbench's list, up to its
#     first '. ', ': ' or '; '), and EXIT STATUS, ENVIRONMENT, FILES and EXAMPLES from the
#     markdown MARKDOWN_DIR/NAME.md, each section followed by the same section of the file every
#     page of its kind shares (commands.md for pbench and its commands, workers.md for the
#     workers), by lowdown; any other section of NAME.md comes along as it is.
#   manS/NAME.S.gz for each MARKDOWN_DIR/NAME.S.md (S a section other than 1): a whole page by
#     lowdown (pbench-site.5, pbench-store.7).
# A markdown file's first line, its title on GitHub ("# pbench-run(1)"), and what comes before
# its first "## SECTION" are not part of the page.
cmake_minimum_required(VERSION 3.22)
string(REPLACE "|" ";" programs "${PROGRAMS}")
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR}/man1)
get_filename_component(work_dir ${OUT_DIR} DIRECTORY)
set(work_dir ${work_dir}/work)
file(REMOVE_RECURSE ${work_dir})
file(MAKE_DIRECTORY ${work_dir})
# The pages' date, as help2man writes it (both follow SOURCE_DATE_EPOCH when it is set).
string(TIMESTAMP page_date "%B %Y")
# The sections a program's page takes from markdown, in the order help2man prints them.
set(markdown_sections "EXIT STATUS" "ENVIRONMENT" "FILES" "EXAMPLES")

# markdown_section(TEXT NAME OUT): the body of the section "## NAME" of the markdown TEXT (empty
# when it has none). The text is never treated as a list (it holds ';' and brackets).
function(markdown_section text name out)
  set(body "")
  string(FIND "\n${text}" "\n## ${name}\n" start)
  if(start GREATER_EQUAL 0)
    string(LENGTH "## ${name}\n" heading)
    math(EXPR start "${start} + ${heading}")
    string(SUBSTRING "${text}" ${start} -1 body)
    string(FIND "${body}" "\n## " end)
    if(end GREATER_EQUAL 0)
      string(SUBSTRING "${body}" 0 ${end} body)
    endif()
  endif()
  set(${out} "${body}" PARENT_SCOPE)
endfunction()

# markdown_section_names(TEXT OUT): the names of TEXT's "## " sections, in order.
function(markdown_section_names text out)
  string(REGEX MATCHALL "(^|\n)## [^\n]+" headings "${text}")
  set(names)
  foreach(heading IN LISTS headings)
    string(REGEX REPLACE "^\n?## " "" heading "${heading}")
    string(STRIP "${heading}" heading)
    list(APPEND names "${heading}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# The roff lowdown writes, made plain: a heading on its .SH/.SS line, as every other page has it
# (and whatis parsers expect for NAME); the items of a list one blank line apart, as lowdown's
# upward space between them (.sp -1 after .IP) is lost after some items in man-db's rendering.
function(tidy_roff roff out)
  string(REGEX REPLACE "(^|\n)\\.(SH|SS)\n([^\n]+)" "\\1.\\2 \"\\3\"" roff "${roff}")
  string(REPLACE ".if n \\\n.sp -1\n.if t \\\n.sp -0.25v\n" "" roff "${roff}")
  string(REPLACE ".if n \\\n.sp -1v\n.if t \\\n.sp -0.25v\n" "" roff "${roff}")
  set(${out} "${roff}" PARENT_SCOPE)
endfunction()

# lowdown_roff(MARKDOWN OUT [ARGS...]): roff of the markdown text by lowdown -Tman (no smart
# quotes or dashes: "--db" stays two hyphens; links show their text, not the .md file; no
# emphasis inside a word: b_eff_io stays b_eff_io, as on GitHub).
function(lowdown_roff markdown out)
  set(input ${work_dir}/lowdown-input.md)
  file(WRITE ${input} "${markdown}")
  execute_process(
    COMMAND ${LOWDOWN} -Tman --out-no-smarty --nroff-nolinks --parse-no-metadata --parse-no-intraemph
            ${ARGN} ${input}
    OUTPUT_VARIABLE roff RESULT_VARIABLE failed ERROR_VARIABLE errors)
  if(failed)
    message(FATAL_ERROR "lowdown failed on markdown for ${out}: ${errors}")
  endif()
  tidy_roff("${roff}" roff)
  set(${out} "${roff}" PARENT_SCOPE)
endfunction()

# The markdown after its title line (GitHub's heading of the file).
function(read_markdown path out)
  if(NOT EXISTS ${path})
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  file(READ ${path} text)
  string(REGEX REPLACE "^# [^\n]*\n" "" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

read_markdown(${MARKDOWN_DIR}/commands.md shared_commands)
read_markdown(${MARKDOWN_DIR}/workers.md shared_workers)
if(NOT shared_commands OR NOT shared_workers)
  message(FATAL_ERROR "${MARKDOWN_DIR}/commands.md or workers.md is missing")
endif()

# help2man(NAME EXECUTABLE DESCRIPTION SHARED SEE_ALSO): OUT_DIR/man1/NAME.1.gz, with the
# sections of MARKDOWN_DIR/NAME.md, each followed by that of the markdown SHARED.
function(help2man name executable description shared see_also)
  string(REGEX REPLACE "[.:;] .*" "" description "${description}")
  read_markdown(${MARKDOWN_DIR}/${name}.md own)
  if(NOT own)
    message(WARNING "No ${MARKDOWN_DIR}/${name}.md: the page ${name}(1) has no EXAMPLES (the "
                    "install tests fail on it)")
  endif()
  markdown_section_names("${own}" sections)
  list(REMOVE_ITEM sections ${markdown_sections})
  set(include_text "")
  foreach(section IN LISTS markdown_sections sections)
    # The page's own text and the shared one apart (a list of each stays a list of its own).
    markdown_section("${own}" "${section}" body)
    set(shared_body "")
    list(FIND markdown_sections "${section}" standard)
    if(standard GREATER_EQUAL 0)
      markdown_section("${shared}" "${section}" shared_body)
    endif()
    set(roff "")
    foreach(part IN ITEMS body shared_body)
      string(STRIP "${${part}}" text)
      if(NOT text STREQUAL "")
        lowdown_roff("${text}" part_roff)
        string(APPEND roff "${part_roff}")
      endif()
    endforeach()
    if(roff STREQUAL "")
      continue()
    endif()
    # help2man reads a line "[NAME]" as a new section and "/.../" as a pattern: such lines of
    # text (a TOML table, a path) start with the zero-width \& instead.
    string(REGEX REPLACE "(^|\n)([[/])" "\\1\\\\&\\2" roff "${roff}")
    string(APPEND include_text "[${section}]\n${roff}\n")
  endforeach()
  set(include_file ${work_dir}/${name}.h2m)
  file(WRITE ${include_file} "${include_text}[SEE ALSO]\n${see_also}\n")
  execute_process(
    COMMAND ${HELP2MAN} --no-info --version-string=${VERSION} --name=${description}
            --include=${include_file} --output=${OUT_DIR}/man1/${name}.1 ${executable}
    RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "help2man ${executable} failed")
  endif()
  execute_process(COMMAND gzip -9nf ${OUT_DIR}/man1/${name}.1 RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "gzip ${OUT_DIR}/man1/${name}.1 failed")
  endif()
endfunction()

# The text of the first help line after "NAME: " (the programs start their help so).
function(first_help_line executable out)
  execute_process(COMMAND ${executable} --help OUTPUT_VARIABLE help RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "${executable} --help failed")
  endif()
  string(REGEX MATCH "^[^\n]*" line "${help}")
  string(REGEX REPLACE "^[^ ]+: " "" line "${line}")
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

set(pbench "")
foreach(program IN LISTS programs)
  get_filename_component(name ${program} NAME)
  if(name STREQUAL "pbench")
    set(pbench ${program})
  endif()
endforeach()
if(NOT pbench)
  message(FATAL_ERROR "PROGRAMS holds no pbench")
endif()

# The commands: the lines under "Subcommands:" in `pbench --help` ("  NAME  DESCRIPTION").
execute_process(COMMAND ${pbench} --help OUTPUT_VARIABLE pbench_help RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${pbench} --help failed")
endif()
string(REGEX REPLACE ".*\nSubcommands:\n" "" command_lines "${pbench_help}")
string(REPLACE "\n" ";" command_lines "${command_lines}")
set(commands)
foreach(line IN LISTS command_lines)
  if(line MATCHES "^  ([a-z][a-z-]*)  +(.*)$")
    list(APPEND commands ${CMAKE_MATCH_1})
    set(description_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  elseif(line MATCHES "^[^ ]")
    break()
  endif()
endforeach()
if(NOT commands)
  message(FATAL_ERROR "no commands found in `pbench --help`")
endif()

# The whole pages of other sections: NAME.S.md.
file(GLOB markdown_pages RELATIVE ${MARKDOWN_DIR} ${MARKDOWN_DIR}/*.[2-9].md)
set(see_also_pages "")
foreach(page IN LISTS markdown_pages)
  string(REGEX REPLACE "\\.md$" "" page "${page}")
  string(REGEX MATCH "[2-9]$" section "${page}")
  string(REGEX REPLACE "\\.[2-9]$" "" name "${page}")
  string(APPEND see_also_pages ".BR ${name} (${section}),\n")
  set(page_section_${name} ${section})
endforeach()
set(volume_5 "File Formats Manual")
set(volume_7 "Miscellaneous Information Manual")
foreach(page IN LISTS markdown_pages)
  string(REGEX REPLACE "\\.md$" "" page "${page}")
  string(REGEX REPLACE "\\.[2-9]$" "" name "${page}")
  set(section ${page_section_${name}})
  read_markdown(${MARKDOWN_DIR}/${page}.md text)
  string(FIND "\n${text}" "\n## " start)
  if(start LESS 0)
    message(FATAL_ERROR "${MARKDOWN_DIR}/${page}.md has no section (## NAME, ...)")
  endif()
  string(SUBSTRING "${text}" ${start} -1 text)
  # Its "## " sections are the page's: one level up. The title in capitals, as help2man's.
  string(TOUPPER "${name}" title)
  lowdown_roff("${text}" roff -s -M "title=${title}" -M "section=${section}"
    -M "source=pbench ${VERSION}" -M "volume=${volume_${section}}" -M "date=${page_date}"
    -M "shiftheadinglevelby=-1")
  # The first line asks man for tbl, which lays out a table.
  file(MAKE_DIRECTORY ${OUT_DIR}/man${section})
  file(WRITE ${OUT_DIR}/man${section}/${page} "'\\\" t\n${roff}")
  execute_process(COMMAND gzip -9nf ${OUT_DIR}/man${section}/${page} RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "gzip ${OUT_DIR}/man${section}/${page} failed")
  endif()
endforeach()

set(see_also_programs "")
foreach(program IN LISTS programs)
  get_filename_component(name ${program} NAME)
  if(NOT name STREQUAL "pbench")
    string(APPEND see_also_programs ".BR ${name} (1),\n")
  endif()
endforeach()
set(see_also_commands "")
foreach(command IN LISTS commands)
  string(APPEND see_also_commands ".BR pbench-${command} (1),\n")
endforeach()
string(REGEX REPLACE ",\n$" "\n" see_also_everything
  "${see_also_programs}${see_also_commands}${see_also_pages}")
string(REGEX REPLACE ",\n$" "\n" see_also_one ".BR pbench (1),\n${see_also_pages}")

foreach(program IN LISTS programs)
  get_filename_component(name ${program} NAME)
  first_help_line(${program} description)
  if(name STREQUAL "pbench")
    help2man(${name} ${program} "${description}" "${shared_commands}" "${see_also_everything}")
  else()
    help2man(${name} ${program} "${description}" "${shared_workers}" "${see_also_one}")
  endif()
endforeach()

# Each command through a wrapper named pbench-COMMAND (help2man takes the name from the path).
foreach(command IN LISTS commands)
  set(wrapper ${work_dir}/pbench-${command})
  file(WRITE ${wrapper} "#!/bin/sh\nexec '${pbench}' ${command} \"$@\"\n")
  file(CHMOD ${wrapper} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  help2man(pbench-${command} ${wrapper} "${description_${command}}" "${shared_commands}"
    "${see_also_one}")
endforeach()
file(REMOVE_RECURSE ${work_dir})
file(TOUCH ${STAMP})
