# cmake -P script behind the qml_install test: installs the build into a scratch prefix and
# runs tst_installed.qml with that prefix's QML directory as the only added import path.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()
foreach(f qmldir EtcdQtQml.qmltypes libEtcdQtQmlplugin.so)
  if(NOT EXISTS ${WORK}/prefix/${QML_DIR}/EtcdQt/${f})
    message(FATAL_ERROR "not installed: ${QML_DIR}/EtcdQt/${f}")
  endif()
endforeach()
execute_process(COMMAND ${RUNNER} -platform offscreen -import ${WORK}/prefix/${QML_DIR}
  -input ${TEST_FILE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed module failed (${rc})")
endif()
