# cmake -P script behind the install_consumer test: `cmake --install` into a scratch prefix,
# then the consumer project against it (consume.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/consume.cmake)
file(REMOVE_RECURSE ${WORK})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
check_installed_headers(${WORK}/prefix ${LIBDIR})
# The build's own GCC flags for speed (EtcdQtBuildFlags.cmake): most of this test's time is
# compiling every installed header alone.
set(flags "${GC_FLAGS}")
if(SANITIZE)
  string(APPEND flags " -fsanitize=${SANITIZE}")
endif()
# Through the build's ccache (the installed copies hash like the sources): a warm CI compiles
# none of the headers-alone units again.
build_and_run_consumer(${CONSUMER_SRC} ${WORK}/prefix ${WORK} ${GENERATOR} "${flags}" ON
  "${LAUNCHER}")
