# cmake -P script behind the install_consumer test.
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
foreach(f include/EtcdQt/etcdclient.h include/EtcdQt/etcdqt_export.h lib/cmake/EtcdQt/EtcdQtConfig.cmake)
  if(NOT EXISTS ${WORK}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
file(GLOB_RECURSE leaked ${WORK}/prefix/include/*.pb.h)
if(leaked)
  message(FATAL_ERROR "generated protobuf headers were installed: ${leaked}")
endif()
# A sanitizer build's library needs the sanitizer runtime in the program too.
set(flags "")
if(SANITIZE)
  set(flags "-fsanitize=${SANITIZE}")
endif()
# The consumer compiles every public header on its own: through the build's ccache (the
# installed copies hash like the sources), a warm CI compiles none of them again.
run(${CMAKE_COMMAND} -S ${CONSUMER_SRC} -B ${WORK}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK}/prefix "-DCMAKE_CXX_FLAGS=${flags}"
    -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
run(${CMAKE_COMMAND} --build ${WORK}/build)
run(${WORK}/build/etcdqt_consumer)
if(NOT last_output MATCHES "consumer ok")
  message(FATAL_ERROR "consumer printed: ${last_output}")
endif()
message(STATUS "installed package consumed: ${last_output}")
