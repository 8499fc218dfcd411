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
endif()

# Applied to our own targets only (generated protobuf code is left alone).
function(etcdqt_hygiene target)
  target_compile_definitions(${target} PRIVATE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT QT_NO_FOREACH QT_NO_KEYWORDS
    QT_DISABLE_DEPRECATED_BEFORE=0x060400)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
endfunction()
