# Installing (issue 27): the build tree installed (stripped) and packaged once by the fixture
# "install: stage" into a directory under /tmp the unprivileged user can reach; then the moved
# prefix, the Debian package through apt and the Lmod module, each running as nobody where root,
# and the man pages of the staged prefix.
# "install: configure" configures the sources without doctest and with toml++ either way.
set(install_dir ${CMAKE_CURRENT_SOURCE_DIR}/integration/install)
set(install_record ${CMAKE_CURRENT_BINARY_DIR}/install-stage.path)
add_test(NAME "install: stage"
  COMMAND bash ${install_dir}/stage.sh ${CMAKE_BINARY_DIR} ${install_record})
set_tests_properties("install: stage" PROPERTIES FIXTURES_SETUP install_stage TIMEOUT 300)
add_test(NAME "install: clean" COMMAND bash ${install_dir}/clean.sh ${install_record})
set_tests_properties("install: clean" PROPERTIES FIXTURES_CLEANUP install_stage)
foreach(script moved_prefix debian_package lmod_module man_pages)
  string(REPLACE "_" " " name ${script})
  add_test(NAME "install: ${name}" COMMAND bash ${install_dir}/${script}.sh)
  set_tests_properties("install: ${name}" PROPERTIES
    FIXTURES_REQUIRED install_stage
    ENVIRONMENT "PBENCH_INSTALL_STAGE=${install_record};PBENCH_PROJECT_VERSION=${PROJECT_VERSION};PBENCH_OPERATOR_GUIDE=${CMAKE_SOURCE_DIR}/docs/operator-guide.md;PBENCH_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    SKIP_RETURN_CODE 77
    TIMEOUT 600)
endforeach()
# The package puts pbench into /usr/bin and its pages into /usr/share/man while it is installed:
# the moved prefix's demo, which must find its workers beside itself and not on PATH, and the
# module's `man -k pbench`, which must find the pages of its own tree, do not run meanwhile.
set_tests_properties("install: moved prefix" "install: debian package" "install: lmod module"
  PROPERTIES RESOURCE_LOCK pbench_system_install)
add_test(NAME "install: configure" COMMAND bash ${install_dir}/configure.sh ${CMAKE_SOURCE_DIR})
set_tests_properties("install: configure" PROPERTIES TIMEOUT 300)
set_tests_properties("install: stage" "install: clean" "install: moved prefix"
  "install: debian package" "install: lmod module" "install: man pages" "install: configure"
  PROPERTIES LABELS install)
