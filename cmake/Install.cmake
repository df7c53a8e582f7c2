# What `cmake --install` puts where (the GNU install directories), included from the top level
# after every target is defined:
#   bin/                       pbench and its workers; pbench finds them beside itself
#                              (/proc/self/exe), so a moved tree still finds them
#   share/pbench/              the job template users copy for --template, the result's JSON
#                              Schema and the store's tables; prometheus/: the alerting rules,
#                              their promtool tests, a Grafana dashboard and the nightly job
#   share/doc/pbench/          README.md and docs/ (the guides, methods, store, lab, man sources)
#   share/man/man1/            a page per program and per pbench command, made at build time by
#                              help2man from the program's own --help and by lowdown from
#                              docs/man/ (exit status, environment, files, examples)
#   share/man/man5/, man7/     pbench-site(5), the site profile; pbench-store(7), the store
#   libexec/pbench/<mpi>/      every worker set the build made (PBENCH_WORKER_MPIS), one
#                              directory per MPI library, as a site profile's worker_dir names
#                              it; the main set's directory links to its workers in bin/
#   etc/pbench/site.toml.example  a site profile naming those sets (relative to itself, so a
#                              moved tree's works); copied to site.toml beside it, pbench reads
#                              it. The .deb has it in /usr/share/doc/pbench/examples/ with
#                              /usr/libexec paths (pbench in /usr/bin reads /etc/pbench/site.toml)
#   share/modulefiles/pbench/  VERSION.lua for Lmod (PATH and MANPATH, found from where it lies;
#                              in bash it enables the completion too)
#   share/bash-completion/completions/pbench   which asks `pbench __complete`
# A Release build carries no debug information; `cmake --install --strip` strips any other build.
include(GNUInstallDirs)

set(PBENCH_PROGRAMS pbench pbench-logp pbench-comm pbench-io pbench-bcast pbench-links)
install(TARGETS ${PBENCH_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Every worker set in libexec/pbench/<mpi>/: a further set's workers themselves, the main set's
# as relative links to bin/ (one copy of each binary; the links survive a move of the tree).
set(PBENCH_WORKERS logp comm io bcast links)
foreach(mpi IN LISTS PBENCH_WORKER_MPIS)
  set(set_dir ${CMAKE_INSTALL_LIBEXECDIR}/pbench/${mpi})
  if(mpi STREQUAL PBENCH_MPI)
    file(RELATIVE_PATH to_bin /prefix/${set_dir} /prefix/${CMAKE_INSTALL_BINDIR})
    foreach(worker IN LISTS PBENCH_WORKERS)
      install(CODE "
        set(link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${set_dir}/pbench-${worker}\")
        message(STATUS \"Installing: \${link} -> ${to_bin}/pbench-${worker}\")
        file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${set_dir}\")
        file(CREATE_LINK ${to_bin}/pbench-${worker} \"\${link}\" SYMBOLIC)")
    endforeach()
  else()
    set(set_targets)
    foreach(worker IN LISTS PBENCH_WORKERS)
      list(APPEND set_targets pbench-${worker}_${mpi})
    endforeach()
    install(TARGETS ${set_targets} RUNTIME DESTINATION ${set_dir})
  endif()
endforeach()

# The sample site profile: an [[environment]] per worker set, each launched by its MPI's own
# launcher. Two copies are made: one for a prefix (etc/pbench/, worker_dir relative to it) and
# one for the package in /usr (worker_dir /usr/libexec/...).
foreach(kind prefix usr)
  set(PBENCH_SITE_ENVIRONMENTS "")
  foreach(mpi IN LISTS PBENCH_WORKER_MPIS)
    if(kind STREQUAL "prefix")
      file(RELATIVE_PATH worker_dir /prefix/${CMAKE_INSTALL_SYSCONFDIR}/pbench
        /prefix/${CMAKE_INSTALL_LIBEXECDIR}/pbench/${mpi})
    else()
      set(worker_dir /usr/${CMAKE_INSTALL_LIBEXECDIR}/pbench/${mpi})
    endif()
    if(pbench_mpi_${mpi}_flavour STREQUAL "openmpi")
      set(launcher_name mpirun)
    else()
      set(launcher_name mpiexec)
    endif()
    string(APPEND PBENCH_SITE_ENVIRONMENTS "\n[[environment]]\nname = \"${mpi}\"\n"
      "worker_dir = \"${worker_dir}\"\n"
      "launcher = { name = \"${launcher_name}\", program = \"${pbench_mpi_${mpi}_launcher}\" }\n")
  endforeach()
  string(REPLACE ";" "," PBENCH_SITE_ENV_LIST "${PBENCH_WORKER_MPIS}")
  if(kind STREQUAL "prefix")
    set(PBENCH_SITE_COPY "site.toml in this directory (worker_dir is relative to the profile)")
  else()
    set(PBENCH_SITE_COPY "/etc/pbench/site.toml")
  endif()
  configure_file(${CMAKE_SOURCE_DIR}/cmake/site.toml.example.in
    ${CMAKE_BINARY_DIR}/site/${kind}/site.toml.example @ONLY)
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/site/prefix/site.toml.example
  DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/pbench COMPONENT site_example)
# The package's, in the component "debian" (cmake/Packaging.cmake), which a plain install leaves
# out: Debian keeps examples among the documents, and /etc is the operator's.
install(FILES ${CMAKE_BINARY_DIR}/site/usr/site.toml.example
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT debian EXCLUDE_FROM_ALL)

install(FILES jobtemplates/job.sh
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pbench/jobtemplates)
install(FILES schema/result.schema.json schema/store.sql schema/store_views.sql
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pbench/schema)
# Monitoring (docs/operator-guide.md): the alerting rules and their promtool unit tests, the
# Grafana dashboard and the nightly job, the files the test suite runs (tests/monitoring.cmake).
install(FILES share/pbench/prometheus/pbench.rules.yml share/pbench/prometheus/pbench.rules.test.yml
  share/pbench/prometheus/pbench-dashboard.json
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pbench/prometheus)
install(PROGRAMS share/pbench/prometheus/pbench-nightly.sh
  DESTINATION ${CMAKE_INSTALL_DATADIR}/pbench/prometheus)
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
set(PBENCH_COMPLETION_FILE ${CMAKE_INSTALL_DATADIR}/bash-completion/completions/pbench)
configure_file(${CMAKE_SOURCE_DIR}/cmake/pbench-module.lua.in
  ${CMAKE_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.lua @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/modulefiles/${PROJECT_VERSION}.lua
  DESTINATION ${CMAKE_INSTALL_DATADIR}/modulefiles/pbench)
