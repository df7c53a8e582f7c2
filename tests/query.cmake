# Integration tests of pbench query on a store filled by real tiny runs of every worker. Each
# script makes and removes its own scratch directory.
foreach(script answers)
  add_test(NAME "query: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/query/${script}.sh)
  set_tests_properties("query: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>"
    TIMEOUT 300)
endforeach()
