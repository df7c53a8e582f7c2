# Monitoring (issue 55): the Prometheus rules, dashboard and nightly job shipped in
# share/pbench/prometheus/. "rules": promtool check rules and promtool test rules on their unit
# tests, and the tests shown to fail on wrong rules (seconds). "dashboard": the Grafana
# dashboard's queries against a real export of all five workers, parsed by promtool (a minute).
# "nightly": the shipped job run three nights against a real node_exporter, Prometheus,
# Pushgateway and Alertmanager (Debian's packages, loopback ports it chooses), the regressed
# night's alert delivered to the test's own receiver (a minute or two).
set(monitoring_dir ${CMAKE_CURRENT_SOURCE_DIR}/integration/monitoring)
add_test(NAME "monitoring: rules" COMMAND bash ${monitoring_dir}/rules.sh)
set_tests_properties("monitoring: rules" PROPERTIES TIMEOUT 120)
foreach(script dashboard nightly)
  add_test(NAME "monitoring: ${script}" COMMAND bash ${monitoring_dir}/${script}.sh)
  set_tests_properties("monitoring: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>"
    TIMEOUT 300)
endforeach()
