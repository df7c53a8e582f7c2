# pbench_embed_text(target NAMESPACE ns FILES ident=path ...)
# Makes a static library `target` with a header <target.hpp> declaring
# `std::string_view ident();` in namespace `ns` for each file, regenerated when a file changes.
function(pbench_embed_text target)
  cmake_parse_arguments(ARG "" "NAMESPACE" "FILES" ${ARGN})
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_gen)
  set(header ${out_dir}/${target}.hpp)
  set(source ${out_dir}/${target}.cpp)
  set(inputs)
  set(pairs)
  foreach(pair IN LISTS ARG_FILES)
    string(REPLACE "=" ";" parts "${pair}")
    list(GET parts 1 path)
    list(APPEND inputs ${path})
    list(APPEND pairs "${pair}")
  endforeach()
  string(REPLACE ";" "|" pairs_arg "${pairs}")
  add_custom_command(
    OUTPUT ${header} ${source}
    COMMAND ${CMAKE_COMMAND} -DOUT_DIR=${out_dir} -DTARGET=${target} -DNAMESPACE=${ARG_NAMESPACE}
            "-DPAIRS=${pairs_arg}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedTextGenerate.cmake
    DEPENDS ${inputs} ${CMAKE_SOURCE_DIR}/cmake/EmbedTextGenerate.cmake
    COMMENT "Embedding text files into ${target}"
    VERBATIM)
  add_library(${target} STATIC ${source} ${header})
  target_include_directories(${target} PUBLIC ${out_dir})
endfunction()
