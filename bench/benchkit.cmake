# hostnn_benchkit: the code the Google Benchmark suites (bench/) and hostnn-scale
# (tools/scale/) share — the roofline kernel and the benchmark cases. Included by both;
# whichever comes first defines the target. Never installed, never part of the library.
if(NOT TARGET hostnn_benchkit)
  add_library(hostnn_benchkit STATIC
    ${PROJECT_SOURCE_DIR}/bench/roofline.cc
    ${PROJECT_SOURCE_DIR}/bench/cases.cc)
  target_include_directories(hostnn_benchkit
    PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(hostnn_benchkit PRIVATE -Wall -Wextra)
  target_link_libraries(hostnn_benchkit PUBLIC hostnn_internal)
endif()
