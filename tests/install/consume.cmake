# Shared by install_consumer.cmake (a `cmake --install` prefix) and package_debs.cmake (the
# .debs unpacked into a scratch root): what a user of an installed EtcdQt sees.

# Runs a command, fails the test with its output when it fails; its stdout in `last_output`.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# The installed headers under `prefix`: ours are there, no generated protobuf header is, and
# none includes gRPC or protobuf (users get no include path for them).
function(check_installed_headers prefix libdir)
  foreach(f include/EtcdQt/etcdclient.h include/EtcdQt/etcdqt_export.h include/EtcdQt/EtcdMutex
      include/EtcdQtTestKit/etcdtestserver.h include/EtcdQtTestKit/FaultProxy
      ${libdir}/cmake/EtcdQt/EtcdQtConfig.cmake ${libdir}/cmake/EtcdQt/EtcdQtTestKitTargets.cmake
      include/EtcdQt/etcdprometheusexporter.h include/EtcdQt/EtcdPrometheusExporter
      ${libdir}/cmake/EtcdQt/EtcdQtPrometheusTargets.cmake)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
  file(GLOB_RECURSE leaked ${prefix}/include/*.pb.h ${prefix}/include/EtcdQtTestKit/*_p.h
    ${prefix}/include/EtcdQtTestKit/etcdtestgrpc.h)
  if(leaked)
    message(FATAL_ERROR "private or generated headers were installed: ${leaked}")
  endif()
  file(GLOB_RECURSE headers ${prefix}/include/EtcdQt/* ${prefix}/include/EtcdQtTestKit/*)
  foreach(header IN LISTS headers)
    file(STRINGS ${header} grpc REGEX "#include [<\"](grpc|google/protobuf)")
    if(grpc)
      message(FATAL_ERROR "${header} includes gRPC or protobuf: ${grpc}")
    endif()
  endforeach()
endfunction()

# Builds consumer/ against `prefix` alone (find_package(EtcdQt COMPONENTS TestKit)) into
# `work`/build, checks it found the package there, and runs its two programs: the library
# consumer, and the test kit consumer (a real etcd behind a FaultProxy). `flags`: extra
# CXXFLAGS (a sanitizer build's library needs the sanitizer runtime in the program too);
# `headers_alone`: also compile each installed header on its own; `launcher`: the compiler
# launcher (ccache) or empty.
function(build_and_run_consumer source prefix work generator flags headers_alone launcher)
  run(${CMAKE_COMMAND} -S ${source} -B ${work}/build -G ${generator}
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
      "-DCMAKE_CXX_FLAGS=${flags}" -DCONSUMER_HEADERS_ALONE=${headers_alone}
      "-DCMAKE_CXX_COMPILER_LAUNCHER=${launcher}")
  file(STRINGS ${work}/build/CMakeCache.txt found REGEX "^EtcdQt_DIR:")
  string(FIND "${found}" "${prefix}/" at)
  if(NOT at GREATER -1)
    message(FATAL_ERROR "the consumer found EtcdQt outside ${prefix}: ${found}")
  endif()
  run(${CMAKE_COMMAND} --build ${work}/build)
  run(${work}/build/etcdqt_consumer)
  if(NOT last_output MATCHES "consumer ok")
    message(FATAL_ERROR "consumer printed: ${last_output}")
  endif()
  message(STATUS "installed library consumed: ${last_output}")
  run(${work}/build/tst_testkitconsumer)
  message(STATUS "installed test kit consumed:\n${last_output}")
endfunction()
