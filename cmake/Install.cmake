# What `cmake --install` puts where (the GNU install directories), included from the top level
# after every target is defined:
#   bin/                       pbench and its workers; pbench finds them beside itself
#                              (/proc/self/exe), so a moved tree still finds them
#   share/pbench/              the job template users copy for --template, the result's JSON
#                              Schema and the store's tables
#   share/doc/pbench/          README.md and docs/ (the guides, methods, store, lab, man sources)
#   share/man/man1/            a page per program and per pbench command, made at build time by
#                              help2man from the program's own --help and by lowdown from
#                              docs/man/ (exit status, environment, files, examples)
#   share/man/man5/, man7/     pbench-site(5), the site profile; pbench-store(7), the store
#   share/modulefiles/pbench/  VERSION.lua for Lmod (PATH and MANPATH, found from where it lies)
#   share/bash-completion/completions/pbench   which asks `pbench __complete`
# A Release build carries no debug information; `cmake --install --strip` strips any other build.
include(GNUInstallDirs)

set(PBENCH_PROGRAMS pbench pbench-logp pbench-comm pbench-io pbench-bcast pbench-links)
install(TARGETS ${PBENCH_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(FILES jobtemplates/job.sh
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pbench/jobtemplates)
install(FILES schema/result.schema.json schema/store.sql schema/store_views.sql
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pbench/schema)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# README links docs/... relative to itself: the same layout under the doc directory.
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

install(FILES orchestrator/cli/completion.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME pbench)

# Man pages: help2man runs each program's --help (and each pbench command's) after the program
# is built, and lowdown adds the sections written in markdown in docs/man/ (EXIT STATUS,
# ENVIRONMENT, FILES, EXAMPLES; the pages pbench-site(5) and pbench-store(7) whole);
# cmake/ManPages.cmake lists the commands from `pbench --help`, so a new command gets its page
# without a change here (and its EXAMPLES from docs/man/pbench-COMMAND.md).
find_program(PBENCH_HELP2MAN help2man)
find_program(PBENCH_LOWDOWN lowdown)
if(PBENCH_HELP2MAN AND PBENCH_LOWDOWN)
  set(man_dir ${CMAKE_BINARY_DIR}/man/pages)
  set(man_stamp ${CMAKE_BINARY_DIR}/man/pages.stamp)
  set(program_files)
  foreach(program IN LISTS PBENCH_PROGRAMS)
    list(APPEND program_files $<TARGET_FILE:${program}>)
  endforeach()
  string(REPLACE ";" "|" program_list "${program_files}")
  file(GLOB man_markdown CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/man/*.md)
  add_custom_command(
    OUTPUT ${man_stamp}
    COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${PBENCH_HELP2MAN} -DLOWDOWN=${PBENCH_LOWDOWN}
            -DMARKDOWN_DIR=${CMAKE_SOURCE_DIR}/docs/man -DOUT_DIR=${man_dir}
            -DSTAMP=${man_stamp} "-DPROGRAMS=${program_list}" -DVERSION=${PROJECT_VERSION}
            -P ${CMAKE_SOURCE_DIR}/cmake/ManPages.cmake
    DEPENDS ${PBENCH_PROGRAMS} ${CMAKE_SOURCE_DIR}/cmake/ManPages.cmake ${man_markdown}
    COMMENT "Man pages from the programs' --help (help2man) and docs/man/ (lowdown)"
    VERBATIM)
  add_custom_target(pbench_man_pages ALL DEPENDS ${man_stamp})
  install(DIRECTORY ${man_dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR})
else()
  message(WARNING "help2man or lowdown not found (Debian packages help2man, lowdown): no man "
                  "pages are built or installed")
endif()

# The Lmod module: found from its own path (myFileName()), so the moved tree's module works.
set(PBENCH_MODULE_FILE ${CMAKE_INSTALL_DATADIR}/modulefiles/pbench/${PROJECT_VERSION}.lua)
if(IS_ABSOLUTE "${CMAKE_INSTALL_DATADIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}"
   OR IS_ABSOLUTE "${CMAKE_INSTALL_MANDIR}")
  message(WARNING "An absolute install directory: the Lmod module assumes the layout under one "
                  "prefix")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/pbench-module.lua.in
  ${CMAKE_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.lua @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.lua
  DESTINATION ${CMAKE_INSTALL_DATADIR}/modulefiles/pbench)
