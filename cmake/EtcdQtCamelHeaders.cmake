# Qt-style CamelCase headers: <EtcdQt/EtcdMutex> includes <EtcdQt/etcdmutex.h>. One per public
# class or struct defined (not just declared) in a public header, generated at configure time
# into `out_dir`/EtcdQt; the list of generated files is returned in `out_var`.
function(etcdqt_camelcase_headers out_var out_dir)
  set(_generated)
  foreach(_header IN LISTS ARGN)
    if(NOT _header MATCHES "\\.h$")
      continue()
    endif()
    get_filename_component(_file ${_header} NAME)
    file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${_header} _lines
      REGEX "^(class|struct) (ETCDQT_[A-Z_]*EXPORT )?Etcd[A-Za-z0-9]+( final)?( *:.*)?$")
    foreach(_line IN LISTS _lines)
      string(REGEX REPLACE "^(class|struct) (ETCDQT_[A-Z_]*EXPORT )?(Etcd[A-Za-z0-9]+).*$" "\\3"
        _name "${_line}")
      if(_name MATCHES "Private$")
        continue()
      endif()
      set(_out ${out_dir}/EtcdQt/${_name})
      set(_text "#include <EtcdQt/${_file}>\n")
      if(EXISTS ${_out})
        file(READ ${_out} _old)
      else()
        set(_old "")
      endif()
      if(NOT _old STREQUAL _text) # unchanged files keep their time: nothing rebuilds
        file(WRITE ${_out} "${_text}")
      endif()
      list(APPEND _generated ${_out})
    endforeach()
  endforeach()
  set(${out_var} ${_generated} PARENT_SCOPE)
endfunction()
