# The Debian package (`cpack -G DEB` in the build directory): what `cmake --install` installs
# under /usr, stripped, plus the files Debian policy asks of every package (copyright,
# changelog.Debian.gz), which go into the component "debian" that a plain `cmake --install`
# leaves out. Depends: the shared libraries' packages (dpkg-shlibdeps) and the package of the
# mpiexec the workers were built with (the demo runs through it). Included last from the top level.
set(CPACK_PACKAGE_NAME pbench)
set(CPACK_PACKAGE_VENDOR "the pbench authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "network and parallel I/O benchmarks (b_eff, b_eff_io, LogP, broadcast)")
# The extended description: lines of at most 80 characters (lintian).
set(CPACK_PACKAGE_DESCRIPTION
  "pbench measures what a machine's network and parallel file system deliver,\n\
by published methods: Rabenseifner's effective bandwidth b_eff and effective\n\
I/O bandwidth b_eff_io, LogP/LogGP after Bell et al. and broadcast latency\n\
after de Supinski and Karonis, each an MPI program. The orchestrator pbench\n\
plans sweeps of them, runs them through Slurm, PBS or mpiexec, keeps their\n\
results in SQLite and answers queries, reports and regression checks.")
set(CPACK_PACKAGE_CONTACT "pbench maintainers <pbench@users.noreply.github.com>" CACHE STRING
  "The Maintainer of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL Unspecified debian)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The launcher's package: the one that owns the main worker set's launcher (cmake/PbenchMpi.cmake;
# mpich for MPICH's mpiexec.hydra).
set(PBENCH_DEB_MPI_RUNTIME "" CACHE STRING
  "The Debian package of mpiexec the package depends on (empty: the owner of PBENCH_MPI_LAUNCHER)")
set(mpi_runtime "${PBENCH_DEB_MPI_RUNTIME}")
if(NOT mpi_runtime AND PBENCH_MPI_LAUNCHER)
  find_program(PBENCH_DPKG_QUERY dpkg-query)
  if(PBENCH_DPKG_QUERY)
    get_filename_component(mpiexec_real "${PBENCH_MPI_LAUNCHER}" REALPATH)
    execute_process(COMMAND ${PBENCH_DPKG_QUERY} -S "${mpiexec_real}"
      OUTPUT_VARIABLE owner ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REGEX REPLACE ":.*" "" mpi_runtime "${owner}")
  endif()
endif()
if(mpi_runtime)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${mpi_runtime}")
else()
  message(WARNING "No Debian package owns ${PBENCH_MPI_LAUNCHER}: the .deb names no MPI launcher "
                  "(set PBENCH_DEB_MPI_RUNTIME)")
endif()
# pbench report draws with gnuplot; the batch schedulers are the site's own.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client, slurm-wlm-torque")

# Debian's own files, in the component "debian" (not installed by a plain `cmake --install`).
# The changelog's date is the last commit's (a reconfigure does not change it), else now.
execute_process(COMMAND git log -1 --format=%cD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  OUTPUT_VARIABLE changelog_date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT changelog_date)
  string(TIMESTAMP changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
set(debian_dir ${CMAKE_BINARY_DIR}/debian)
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian/changelog.in ${debian_dir}/changelog @ONLY)
add_custom_command(
  OUTPUT ${debian_dir}/changelog.Debian.gz
  COMMAND gzip -9nc ${debian_dir}/changelog > ${debian_dir}/changelog.Debian.gz
  DEPENDS ${debian_dir}/changelog
  VERBATIM)
add_custom_target(pbench_debian_changelog ALL DEPENDS ${debian_dir}/changelog.Debian.gz)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian/copyright ${debian_dir}/changelog.Debian.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT debian EXCLUDE_FROM_ALL)
include(CPack)
