# The documentation says only what exists (issue 35): every relative link of README.md and
# docs/*.md resolves (file and #anchor, inside what is installed with them), every `pbench ...`
# command they quote names commands and options the built pbench has (and each worker command
# its worker's options and --set parameters), every quoted scripts/, tests/, ... path exists, and
# prose keeps to 100 columns. Seconds: one --help per command path.
set(docs_workers)
foreach(worker logp comm io bcast links)
  list(APPEND docs_workers --worker $<TARGET_FILE:pbench-${worker}>)
endforeach()
add_test(NAME "docs: links and commands"
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/tools/check_docs.py
    --root ${CMAKE_SOURCE_DIR} --pbench $<TARGET_FILE:pbench> ${docs_workers})
set_tests_properties("docs: links and commands" PROPERTIES LABELS unit TIMEOUT 120)
# (tests/CMakeLists.txt adds the labels docs, the area, and integration.)

# Sizes a reviewer can hold (issue 53; docs/development.md): no product function over 120 lines,
# no product file over 700; bench/code_size.py names every one over and exits 1.
add_test(NAME "docs: code sizes"
  COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/bench/code_size.py ${CMAKE_SOURCE_DIR})
set_tests_properties("docs: code sizes" PROPERTIES LABELS unit TIMEOUT 60)
