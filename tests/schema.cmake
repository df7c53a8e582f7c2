# The result contract: the C++ validator and the reference implementation (Python jsonschema,
# Debian's python3-jsonschema, hence /usr/bin/python3 and not a python3 from PATH) must agree
# with each other and with the verdict of each sample's folder under tests/data/results/.
add_executable(pbench-validate-result ${CMAKE_CURRENT_LIST_DIR}/tools/validate_result.cpp)
target_link_libraries(pbench-validate-result PRIVATE pbench_core)

add_test(NAME "schema: jsonschema and the C++ validator agree on the result samples"
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/integration/schema/cross_check.py
    --schema ${CMAKE_SOURCE_DIR}/schema/result.schema.json
    --samples ${CMAKE_CURRENT_LIST_DIR}/data/results
    --validator $<TARGET_FILE:pbench-validate-result>)
