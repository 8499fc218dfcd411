# Project-wide build flags: sanitizers and Qt hygiene definitions.

if(ETCDQT_SANITIZE)
  string(REPLACE "," ";" _etcdqt_sanitizers "${ETCDQT_SANITIZE}")
  foreach(_s IN LISTS _etcdqt_sanitizers)
    if(NOT _s MATCHES "^(address|undefined|thread|leak)$")
      message(FATAL_ERROR "ETCDQT_SANITIZE: unknown sanitizer '${_s}'")
    endif()
  endforeach()
  if("thread" IN_LIST _etcdqt_sanitizers AND "address" IN_LIST _etcdqt_sanitizers)
    message(FATAL_ERROR "ETCDQT_SANITIZE: thread cannot be combined with address")
  endif()
  add_compile_options(-fsanitize=${ETCDQT_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${ETCDQT_SANITIZE})
  if("thread" IN_LIST _etcdqt_sanitizers)
    # lib/src/transport/handover_p.h announces hand-overs to TSan, also from code built without it.
    add_compile_definitions(ETCDQT_TSAN=1)
    # GNU ld, not mold (below): mold exported every symbol of an executable given this script
    # and still exported the std:: ones gRPC referenced; GNU ld exports 8 and none of them.
    add_link_options(-Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/tsan-std-local.map)
  endif()
endif()

# Under TSan, code generated from gRPC's and protobuf's templates runs as gRPC's library does:
# uninstrumented. gRPC synchronises a call's start with its completion inside libgrpc, which
# Debian builds without TSan; instrumented copies of its header templates (the call op sets,
# the reactors, the message parsers protoc generates) reported every completion as a race
# with the call's start (tst_etcdclient: 1,113 reports, all inside those templates). Our own
# transport code stays instrumented, and announces its hand-overs (handover_p.h).
function(etcdqt_like_grpc_library)
  if(ETCDQT_SANITIZE MATCHES "thread")
    foreach(_item IN LISTS ARGN)
      if(TARGET ${_item})
        target_compile_options(${_item} PRIVATE -fno-sanitize=thread)
      else()
        set_property(SOURCE ${_item} APPEND PROPERTY COMPILE_OPTIONS -fno-sanitize=thread)
      endif()
    endforeach()
  endif()
endfunction()

# Links with mold when it is installed (scripts/setup-deps installs it): a warm CI build is
# mostly links once ccache serves the objects, some 60 executables per pass, and GNU ld takes
# 1.5-3 s for each of them. Off with -DETCDQT_FAST_LINKER=OFF.
option(ETCDQT_FAST_LINKER "Link with mold when it is available" ON)
if(ETCDQT_FAST_LINKER AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT ETCDQT_SANITIZE MATCHES "thread")
  find_program(ETCDQT_MOLD mold)
  if(ETCDQT_MOLD)
    include(CheckLinkerFlag)
    check_linker_flag(CXX "-fuse-ld=mold" ETCDQT_HAVE_MOLD)
    if(ETCDQT_HAVE_MOLD)
      add_link_options(-fuse-ld=mold)
    endif()
  endif()
endif()

# GCC collects its garbage each time its heap doubles past 128 MiB (its defaults on a machine
# with this much memory); a translation unit with Qt's headers collects a few times for
# nothing. Past 1 GiB and growth by four: 14% less compile time measured on
# transport.cpp (median of 4: 8.07 -> 6.9 s of CPU), 124 MiB more at the peak. The objects
# are the same. Off with -DETCDQT_LAZY_GCC_GC=OFF on machines short of memory.
option(ETCDQT_LAZY_GCC_GC "Let GCC collect its garbage less often (faster, more memory)" ON)
set(ETCDQT_GCC_GC_FLAGS "")
if(ETCDQT_LAZY_GCC_GC AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(ETCDQT_GCC_GC_FLAGS --param=ggc-min-expand=400 --param=ggc-min-heapsize=1048576)
  add_compile_options(${ETCDQT_GCC_GC_FLAGS})
endif()

# Unity builds for the multi-file libraries and tools (etcdqt_unity()): eight sources per
# translation unit, so Qt's and gRPC's headers are parsed once per eight files instead of
# once per file. The library alone took 288 s of CPU file by file and 100 s in unity (2
# cores, GCC 12): most of a fresh machine's build is header parsing. Not for tests and
# examples: they are one file each, and CMake's unity file names its sources by absolute path,
# so ccache cannot serve a unit to a clone in another folder (every wrapped test missed in a
# warm rehearsal); the few units here rebuild in such a clone, the tests do not.
# File-local names must be unique within a target (anonymous namespaces are shared by the
# files of one unit). GCC warns when a class of one file uses an anonymous type of an earlier
# one in the same unit, as if the file were a header: nothing is wrong with that here.
# Off with -DETCDQT_UNITY_BUILD=OFF, as a change to one file recompiles its neighbours.
option(ETCDQT_UNITY_BUILD "Compile the libraries' sources in batches of eight" ON)
function(etcdqt_unity target)
  if(ETCDQT_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()

# Applied to our own targets only (generated protobuf code is left alone).
function(etcdqt_hygiene target)
  target_compile_definitions(${target} PRIVATE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT QT_NO_FOREACH QT_NO_KEYWORDS
    QT_DISABLE_DEPRECATED_BEFORE=0x060400)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
endfunction()

# Precompiled headers: the Qt and standard headers nearly every test includes, compiled once
# into one PCH that every test executable reuses (REUSE_FROM needs the same flags, so the
# holder is built exactly as etcdqt_add_test builds a test). Qt's headers dominate a test's
# compile time; the project's own headers stay out, so editing them never rebuilds the PCH.
# Off by default when compiling through ccache: GCC's PCH files differ byte for byte from one
# build to the next, and every object built against one is keyed by its bytes, so a clean
# clone recompiled every test with a warm cache (112 misses in a warm plain build of 376 s).
# Without ccache they save a cold build about a third of each test's compile.
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(_etcdqt_pch_default OFF)
else()
  set(_etcdqt_pch_default ON)
endif()
option(ETCDQT_PCH "Precompile Qt and standard headers for the tests and examples"
  ${_etcdqt_pch_default})
set(_etcdqt_test_pch_headers
  <QtCore/qobject.h> <QtCore/qstring.h> <QtCore/qbytearray.h> <QtCore/qlist.h>
  <QtCore/qtimer.h> <QtCore/qthread.h> <QtCore/qprocess.h> <QtCore/qelapsedtimer.h>
  <QtCore/qregularexpression.h> <QtCore/qjsondocument.h> <QtCore/qjsonobject.h>
  <QtCore/qjsonarray.h> <QtCore/qdeadlinetimer.h> <QtCore/qpointer.h>
  <QtTest/qtest.h> <QtTest/qsignalspy.h>
  <chrono> <functional> <memory> <mutex> <optional> <thread> <vector>)

# Gives `target` a test PCH shared with the tests of its directory that link the same
# libraries (`libs`). A PCH is only valid with the same definitions, and those differ by
# directory (QT_TESTCASE_BUILDDIR, were it not removed) and by what is linked (QT_NETWORK_LIB, gRPC's
# _REENTRANT, ETCDQT_BUILDING_TESTS), so the holder links the same. Building a PCH costs about
# what parsing its headers costs three test files, so the holders are made at the end of the
# directory, only for sets of at least three tests: the others compile without one.
set(ETCDQT_PCH_MIN_USERS 3)
function(etcdqt_test_pch target libs)
  if(NOT ETCDQT_PCH)
    return()
  endif()
  # Keyed by the directory relative to the build tree, not its absolute path: the holder's
  # name is in every test's compile command, and clones in other folders must share ccache hits.
  file(RELATIVE_PATH _dir ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  string(MD5 _key "${_dir};${libs}")
  string(SUBSTRING "${_key}" 0 8 _key)
  get_directory_property(_keys ETCDQT_PCH_KEYS)
  if(NOT _keys)
    cmake_language(DEFER CALL _etcdqt_make_test_pchs)
  endif()
  if(NOT _key IN_LIST _keys)
    set_property(DIRECTORY APPEND PROPERTY ETCDQT_PCH_KEYS ${_key})
    set_property(DIRECTORY PROPERTY ETCDQT_PCH_LIBS_${_key} "${libs}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY ETCDQT_PCH_USERS_${_key} ${target})
endfunction()

function(_etcdqt_make_test_pchs)
  get_directory_property(_keys ETCDQT_PCH_KEYS)
  foreach(_key IN LISTS _keys)
    get_directory_property(_users ETCDQT_PCH_USERS_${_key})
    list(LENGTH _users _count)
    if(_count LESS ETCDQT_PCH_MIN_USERS)
      continue()
    endif()
    get_directory_property(_libs ETCDQT_PCH_LIBS_${_key})
    set(_holder etcdqt_test_pch_${_key})
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${_holder}.cpp "// holds the tests' PCH\n")
    add_library(${_holder} OBJECT ${CMAKE_CURRENT_BINARY_DIR}/${_holder}.cpp)
    target_link_libraries(${_holder} PRIVATE Qt6::Test Qt6::Network ${_libs})
    etcdqt_hygiene(${_holder})
    target_compile_options(${_holder} PRIVATE -O0)
    set_target_properties(${_holder} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_precompile_headers(${_holder} PRIVATE ${_etcdqt_test_pch_headers})
    foreach(_target IN LISTS _users)
      target_precompile_headers(${_target} REUSE_FROM ${_holder})
    endforeach()
  endforeach()
endfunction()

# Under TSan every executable links tests/tsanqtorder.cpp, which shows TSan the ordering of
# Qt's event queue (posts before deliveries) inside the uninstrumented QtCore. Called at the
# end of the top-level CMakeLists.txt, once every executable exists.
function(_etcdqt_executables_in dir out)
  set(_found)
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_t IN LISTS _targets)
    get_target_property(_type ${_t} TYPE)
    if(_type STREQUAL "EXECUTABLE")
      list(APPEND _found ${_t})
    endif()
  endforeach()
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _etcdqt_executables_in(${_sub} _more)
    list(APPEND _found ${_more})
  endforeach()
  set(${out} ${_found} PARENT_SCOPE)
endfunction()

function(etcdqt_tsan_event_order)
  if(NOT ETCDQT_SANITIZE MATCHES "thread")
    return()
  endif()
  add_library(EtcdQtTsanQtOrder OBJECT ${PROJECT_SOURCE_DIR}/tests/tsanqtorder.cpp)
  target_link_libraries(EtcdQtTsanQtOrder PRIVATE Qt6::Core)
  _etcdqt_executables_in(${PROJECT_SOURCE_DIR} _executables)
  foreach(_exe IN LISTS _executables)
    target_sources(${_exe} PRIVATE $<TARGET_OBJECTS:EtcdQtTsanQtOrder>)
    # Exported, so the libraries' calls through the PLT reach them too.
    target_link_options(${_exe} PRIVATE
      -Wl,--export-dynamic-symbol=_ZN11QMetaObject16invokeMethodImpl*
      -Wl,--export-dynamic-symbol=_ZN16QCoreApplication9postEvent*)
  endforeach()
endfunction()
