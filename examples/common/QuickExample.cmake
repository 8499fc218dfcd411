# Shared by the Qt Quick examples' CMakeLists (in the tree and standalone):
# etcdqt_quick_example(<target> <uri> [TRANSLATIONS <name>]) builds <target> from the
# example's main.cpp and its Main.qml as the QML module <uri>; with TRANSLATIONS, the German
# translations/<name>_de.ts is embedded as :/i18n (after changing strings:
# `cmake --build build --target <target>_lupdate`).
function(etcdqt_quick_example target uri)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "TRANSLATIONS" "")
  qt_add_executable(${target} main.cpp)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  qt_add_qml_module(${target}
    URI ${uri}
    VERSION 1.0
    QML_FILES Main.qml)
  # Only QML uses EtcdQt (import EtcdQt); the C++ side needs no link to it.
  target_link_libraries(${target} PRIVATE Qt6::Gui Qt6::Qml Qt6::Quick)
  if(arg_TRANSLATIONS)
    qt_add_translations(${target}
      SOURCES main.cpp Main.qml
      TS_FILES ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../translations/${arg_TRANSLATIONS}_de.ts
      RESOURCE_PREFIX /i18n
      LUPDATE_OPTIONS -no-obsolete -locations none)
  endif()
  if(TARGET EtcdQtQmlplugin)
    # In the tree: import EtcdQt from the build tree; installed, Qt's import path has it.
    add_dependencies(${target} EtcdQtQmlplugin)
    # main.cpp alone: on the whole target the absolute path changes the compile command of
    # every generated file from one clone to the next, and ccache misses them.
    set_source_files_properties(main.cpp PROPERTIES
      COMPILE_DEFINITIONS ETCDQT_QML_IMPORT_PATH="${ETCDQT_QML_BUILD_IMPORT_PATH}")
  endif()
endfunction()
