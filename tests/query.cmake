# Integration tests of pbench query on a store filled by real tiny runs of every worker. Each
# script makes and removes its own scratch directory.
foreach(script answers model oversubscribed)
  add_test(NAME "query: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/query/${script}.sh)
  set_tests_properties("query: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>"
    TIMEOUT 300)
endforeach()

# The store's views read from outside (sqlite3, Python's sqlite3) against pbench query.
add_test(NAME "query: store_views"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/query/store_views.sh)
set_tests_properties("query: store_views" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>"
  LABELS "orchestrator;store;query;logp;comm;io;bcast;links"
  TIMEOUT 900)
