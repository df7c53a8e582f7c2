# The Debian package (`cpack -G DEB` in the build directory): what `cmake --install` installs
# under /usr, stripped, plus the files Debian policy asks of every package (copyright,
# changelog.Debian.gz), which go into the component "debian" that a plain `cmake --install`
# leaves out (with the sample site profile of a package in /usr). Depends: the shared libraries'
# packages (dpkg-shlibdeps) and the package of each worker set's launcher (the demo runs through
# the main set's). Included last from the top level.
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
# The launchers' packages: the one that owns each worker set's launcher (cmake/PbenchMpi.cmake;
# mpich for MPICH's mpiexec.hydra, openmpi-bin for Open MPI's mpirun.openmpi), as the package
# carries every set (libexec/pbench/<mpi>/); dpkg-shlibdeps adds each set's MPI library.
set(PBENCH_DEB_MPI_RUNTIME "" CACHE STRING
  "The Debian packages of the MPI launchers the package depends on, comma-separated (empty: the \
owners of each worker set's launcher)")
set(mpi_runtime "${PBENCH_DEB_MPI_RUNTIME}")
if(NOT mpi_runtime)
  find_program(PBENCH_DPKG_QUERY dpkg-query)
  set(owners)
  foreach(mpi IN LISTS PBENCH_WORKER_MPIS)
    set(owner "")
    if(PBENCH_DPKG_QUERY)
      get_filename_component(launcher_real "${pbench_mpi_${mpi}_launcher}" REALPATH)
      execute_process(COMMAND ${PBENCH_DPKG_QUERY} -S "${launcher_real}"
        OUTPUT_VARIABLE owner ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      string(REGEX REPLACE ":.*" "" owner "${owner}")
    endif()
    if(owner)
      list(APPEND owners ${owner})
    else()
      message(WARNING "No Debian package owns ${pbench_mpi_${mpi}_launcher}: the .deb names no "
                      "launcher of the ${mpi} worker set (set PBENCH_DEB_MPI_RUNTIME)")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES owners)
  string(REPLACE ";" ", " mpi_runtime "${owners}")
endif()
if(mpi_runtime)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${mpi_runtime}")
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
