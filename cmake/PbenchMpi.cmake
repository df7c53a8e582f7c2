# Which MPI library the workers are built against, chosen here and never inherited from Debian's
# alternatives (mpicc, mpicxx, mpiexec and mpirun follow whichever MPI was installed last).
#
#   PBENCH_MPI         the MPI of the main worker set (targets pbench-logp, ...; the unit tests
#                      link it): mpich (default) or openmpi
#   PBENCH_EXTRA_MPIS  further worker sets, each built against its own MPI (default: openmpi;
#                      "" for none)
#
# Every set's four workers are in ${CMAKE_BINARY_DIR}/mpi/<name>/ (a worker directory, as a site
# profile's environment names it), beside launch/mpiexec: that MPI's own launcher with the flags
# this machine needs, which the tests put first on PATH. The orchestrator does not link MPI.
#
# An MPI is found through its own pkg-config module (never the alternatives' mpi.pc) and its C
# API only: OMPI_SKIP_MPICXX and MPICH_SKIP_MPICXX keep mpi.h from pulling in the C++ bindings.

set(PBENCH_MPI "mpich" CACHE STRING "MPI library of the main worker set: mpich or openmpi")
set_property(CACHE PBENCH_MPI PROPERTY STRINGS mpich openmpi)
set(PBENCH_EXTRA_MPIS "openmpi" CACHE STRING
  "Further MPI libraries to build a worker set against (list of mpich, openmpi; empty for none)")

# The table of MPI libraries pbench knows how to build against: pkg-config module, the
# directory that holds its .pc file (empty: pkg-config's default path), the launcher and the
# arguments the launcher needs on any machine (root and more ranks than cores are handled by
# the launch script, see cmake/PbenchMpiLaunch.sh.in).
set(pbench_mpi_known mpich openmpi)
set(pbench_mpi_mpich_module mpich)
set(pbench_mpi_mpich_pc_dir "")
set(pbench_mpi_mpich_launcher /usr/bin/mpiexec.hydra)
set(pbench_mpi_mpich_flavour hydra)
set(pbench_mpi_openmpi_module ompi-c)
set(pbench_mpi_openmpi_pc_dir /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openmpi/lib/pkgconfig)
set(pbench_mpi_openmpi_launcher /usr/bin/mpirun.openmpi)
set(pbench_mpi_openmpi_flavour openmpi)

set(PBENCH_WORKER_MPIS ${PBENCH_MPI})
foreach(mpi IN LISTS PBENCH_EXTRA_MPIS)
  if(NOT mpi IN_LIST PBENCH_WORKER_MPIS)
    list(APPEND PBENCH_WORKER_MPIS ${mpi})
  endif()
endforeach()

find_package(PkgConfig REQUIRED)
foreach(mpi IN LISTS PBENCH_WORKER_MPIS)
  if(NOT mpi IN_LIST pbench_mpi_known)
    message(FATAL_ERROR "PBENCH_MPI/PBENCH_EXTRA_MPIS: unknown MPI library '${mpi}' "
      "(known: ${pbench_mpi_known})")
  endif()
  set(saved_path "$ENV{PKG_CONFIG_PATH}")
  if(pbench_mpi_${mpi}_pc_dir)
    set(ENV{PKG_CONFIG_PATH} "${pbench_mpi_${mpi}_pc_dir}")
  endif()
  pkg_check_modules(PBENCH_MPI_${mpi} QUIET IMPORTED_TARGET GLOBAL ${pbench_mpi_${mpi}_module})
  set(ENV{PKG_CONFIG_PATH} "${saved_path}")
  if(NOT PBENCH_MPI_${mpi}_FOUND)
    message(FATAL_ERROR "MPI library '${mpi}' not found (pkg-config module "
      "'${pbench_mpi_${mpi}_module}' ${pbench_mpi_${mpi}_pc_dir}): run scripts/install-deps, "
      "or leave it out (-DPBENCH_MPI=... -DPBENCH_EXTRA_MPIS=...)")
  endif()
  if(NOT EXISTS ${pbench_mpi_${mpi}_launcher})
    message(FATAL_ERROR "MPI library '${mpi}': its launcher ${pbench_mpi_${mpi}_launcher} "
      "is missing (run scripts/install-deps)")
  endif()
  add_library(pbench_mpi_${mpi} INTERFACE)
  target_link_libraries(pbench_mpi_${mpi} INTERFACE PkgConfig::PBENCH_MPI_${mpi})
  target_compile_definitions(pbench_mpi_${mpi} INTERFACE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  message(STATUS "pbench workers (${mpi}): ${PBENCH_MPI_${mpi}_MODULE_NAME} "
    "${PBENCH_MPI_${mpi}_VERSION}, launched by ${pbench_mpi_${mpi}_launcher}, in "
    "${CMAKE_BINARY_DIR}/mpi/${mpi}")
  # The set's launch script: the tests put its directory first on PATH, so that `mpiexec`
  # there is this MPI's launcher whatever Debian's alternatives point to.
  set(PBENCH_LAUNCHER ${pbench_mpi_${mpi}_launcher})
  set(PBENCH_LAUNCHER_FLAVOUR ${pbench_mpi_${mpi}_flavour})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/PbenchMpiLaunch.sh.in
    ${CMAKE_BINARY_DIR}/mpi/${mpi}/launch/mpiexec @ONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
    WORLD_EXECUTE)
endforeach()

# pbench_set_suffix(MPI VAR): VAR is the suffix the target names of MPI's worker set carry: ""
# for the main set (PBENCH_MPI), "_<mpi>" ("_openmpi") for another.
function(pbench_set_suffix mpi var)
  if(mpi STREQUAL PBENCH_MPI)
    set(${var} "" PARENT_SCOPE)
  else()
    set(${var} "_${mpi}" PARENT_SCOPE)
  endif()
endfunction()

# The worker set being declared (workers/CMakeLists.txt adds the worker folders once per MPI):
# target names carry PBENCH_SET_SUFFIX (pbench_set_suffix).
# pbench_worker(worker SOURCES... [LINK LIBRARY...]) adds the worker's library
# pbench_<worker><suffix> of SOURCES (everything but main, so that the unit tests link the same
# code: the main set's library is one of theirs) over the set's pbench_worker_common and the
# LIBRARYs, and its executable pbench-<worker><suffix> of main.cpp, named pbench-<worker> in the
# set's worker directory.
function(pbench_worker worker)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LINK")
  set(library pbench_${worker}${PBENCH_SET_SUFFIX})
  add_library(${library} STATIC ${arg_SOURCES})
  target_link_libraries(${library} PUBLIC pbench_worker_common${PBENCH_SET_SUFFIX} ${arg_LINK})
  if(PBENCH_SET_SUFFIX STREQUAL "")
    set_property(GLOBAL APPEND PROPERTY PBENCH_UNIT_TEST_LIBS ${library})
  endif()
  set(target pbench-${worker}${PBENCH_SET_SUFFIX})
  add_executable(${target} main.cpp)
  target_link_libraries(${target} PRIVATE ${library})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME pbench-${worker})
  set(set_dir ${CMAKE_BINARY_DIR}/mpi/${PBENCH_SET_MPI})
  if(PBENCH_SET_SUFFIX STREQUAL "")
    # The main set stays where it always was (workers/<worker>/); its worker directory links it.
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E make_directory ${set_dir}
      COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE:${target}> ${set_dir}/pbench-${worker}
      VERBATIM)
  else()
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${set_dir})
  endif()
endfunction()
