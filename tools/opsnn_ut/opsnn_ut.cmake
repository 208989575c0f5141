# ctest entry "opsnn_ut": ops-nn's own op_api unit tests of the activation family, run
# against this build's CANN-named libraries by tools/opsnn_ut/run.sh. Registered only when
# the cache variable HOSTNN_OPSNN_PATH names an ops-nn checkout; nothing is built here.
set(HOSTNN_OPSNN_PATH "" CACHE PATH
    "An ops-nn checkout whose activation op_api tests ctest runs (tools/opsnn_ut); empty: none")
if(HOSTNN_OPSNN_PATH)
  add_test(NAME opsnn_ut COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run.sh ${HOSTNN_OPSNN_PATH}
           ${PROJECT_BINARY_DIR})
  set_tests_properties(opsnn_ut PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 3600 LABELS opsnn_ut)
endif()
