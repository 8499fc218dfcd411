# Debian packages through CPack's DEB generator, one package per install component:
#   cpack -G DEB   (in the build tree, after building it)
# Included from the top-level CMakeLists.txt right after project(), before find_package(Qt6)
# includes GNUInstallDirs, so that the install layout is Debian's; the CPack configuration
# itself is deferred to the end of the top-level directory, when every install component exists.

# GNUInstallDirs picks the multiarch library directory (lib/x86_64-linux-gnu) only for the /usr
# prefix, so a build configured for /usr/local would package libraries into /usr/lib and the
# QML module outside Qt's import path (<libdir>/qt6/qml). Packages need Debian's layout,
# and `cmake --install` into /usr/local finds the same directories on the loader's path.
if(CMAKE_LIBRARY_ARCHITECTURE AND NOT DEFINED CACHE{CMAKE_INSTALL_LIBDIR})
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH
    "Object code libraries (lib/<multiarch tuple>, as Debian installs them)")
endif()

# The install components, each one Debian package.
#   Runtime      libetcdqt<soversion>   the shared library
#   Prometheus   libetcdqt-prometheus<soversion>  EtcdQt::Prometheus, the metrics exporter (own
#                                       package: it needs Qt Network and Qt HttpServer)
#   Development  libetcdqt-dev          headers (CamelCase ones too), CMake package
#   Qml          qml6-module-etcdqt     the QML module
#   Tools        etcdqt-tools           the etcdqt command line
#   Inspector    etcdqt-inspector       the inspector, its .desktop file, icon and metainfo
#   TestKit      libetcdqt-testkit-dev  EtcdQt::TestKit: EtcdTestServer, EtcdTestCluster,
#                                       FaultProxy (own package: it needs etcd-server and gRPC)
# A macro: include(CPack) writes CPackConfig.cmake from the variables of the calling scope.
macro(_etcdqt_configure_cpack)
  set(_version ${PROJECT_VERSION})
  get_target_property(_soversion EtcdQt SOVERSION)
  set(_lib libetcdqt${_soversion}) # Debian policy: the package is named after the soname

  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGE_NAME etcdqt)
  set(CPACK_PACKAGE_VERSION ${_version})
  set(CPACK_PACKAGE_VENDOR "The EtcdQt authors")
  set(CPACK_PACKAGE_CONTACT "The EtcdQt authors <etcdqt@localhost>")
  # Each component's description starts with its own one-line summary; no project-wide one.
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_STRIP_FILES ON) # as Debian ships binaries (without a -dbgsym package here)
  set(CPACK_DEB_COMPONENT_INSTALL ON)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # name_version_arch.deb
  set(CPACK_DEBIAN_PACKAGE_VERSION ${_version})
  set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
  set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
  # Shared-library dependencies come from dpkg-shlibdeps. Our own libEtcdQt is not installed
  # on the build machine; dpkg-shlibdeps finds it in the Runtime component's staging
  # directory and leaves it out, so each package names it below, at the same version.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  # (CPack stages each component in _CPack_Packages/<system>/DEB/<file name>/<component>; if
  # that ever moves, dpkg-shlibdeps stops finding libEtcdQt and cpack fails.)
  set(CPACK_PACKAGE_FILE_NAME etcdqt-${_version})
  set(_staging "${PROJECT_BINARY_DIR}/_CPack_Packages/${CMAKE_SYSTEM_NAME}/DEB/\
${CPACK_PACKAGE_FILE_NAME}")
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${_staging}/Runtime/usr/${CMAKE_INSTALL_LIBDIR}"
    "${_staging}/Prometheus/usr/${CMAKE_INSTALL_LIBDIR}")
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON) # a shlibs file for packages built against us
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=") # 0.x: every release may break the ABI

  set(_full_version "${_version}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
  set(_same "(= ${_full_version})")

  set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${_lib})
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
  set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "etcd coordination recipes for Qt 6 - library
Leases, leader election, locks, barriers and counters on etcd, with Qt signals,
properties and an event-loop friendly API.")

  set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libetcdqt-dev)
  set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
  set(_prometheus libetcdqt-prometheus${_soversion})
  set(CPACK_DEBIAN_PROMETHEUS_PACKAGE_NAME ${_prometheus})
  set(CPACK_DEBIAN_PROMETHEUS_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_PROMETHEUS_PACKAGE_DEPENDS "${_lib} ${_same}")
  set(CPACK_COMPONENT_PROMETHEUS_DESCRIPTION "etcd coordination recipes for Qt 6 - Prometheus exporter
EtcdPrometheusExporter serves the metrics of EtcdQt clients and recipes (RPCs,
keep-alives, heals, lock waits, leadership transitions, queues, caches) over
HTTP in Prometheus' text format.")

  set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "${_lib} ${_same}, ${_prometheus} ${_same}, qt6-base-dev (>= 6.4)")
  set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "etcd coordination recipes for Qt 6 - development files
Headers (including the Qt-style CamelCase ones) and the CMake package:
find_package(EtcdQt) and link EtcdQt::EtcdQt.")

  set(CPACK_DEBIAN_QML_PACKAGE_NAME qml6-module-etcdqt)
  set(CPACK_DEBIAN_QML_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_QML_PACKAGE_DEPENDS "${_lib} ${_same}")
  set(CPACK_COMPONENT_QML_DESCRIPTION "etcd coordination recipes for Qt 6 - QML module
`import EtcdQt`: declarative clients, leases, elections, locks, barriers, latches
and watches.")

  set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME etcdqt-tools)
  set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${_lib} ${_same}, ${_prometheus} ${_same}")
  set(CPACK_COMPONENT_TOOLS_DESCRIPTION "etcd coordination recipes for Qt 6 - command line
etcdqt runs the recipes from a shell (lease, elect, observe, lock, barrier,
latch, counter) and decodes recipe keys (inspect), one JSON object per line.")

  set(CPACK_DEBIAN_INSPECTOR_PACKAGE_NAME etcdqt-inspector)
  set(CPACK_DEBIAN_INSPECTOR_PACKAGE_SECTION net)
  set(CPACK_DEBIAN_INSPECTOR_PACKAGE_DEPENDS "${_lib} ${_same}")
  # --sandbox starts a private etcd and a workload of etcdqt processes.
  set(CPACK_DEBIAN_INSPECTOR_PACKAGE_RECOMMENDS "etcd-server, etcdqt-tools ${_same}")
  set(CPACK_COMPONENT_INSPECTOR_DESCRIPTION "etcd coordination recipes for Qt 6 - inspector
A recipe-aware live view of an etcd cluster: leases and their keys, elections,
lock queues, barriers and counters, with a sandbox mode for trying them out.")

  set(CPACK_DEBIAN_TESTKIT_PACKAGE_NAME libetcdqt-testkit-dev)
  set(CPACK_DEBIAN_TESTKIT_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_TESTKIT_PACKAGE_DEPENDS "libetcdqt-dev ${_same}, etcd-server")
  set(CPACK_COMPONENT_TESTKIT_DESCRIPTION "etcd coordination recipes for Qt 6 - test kit
EtcdQt::TestKit (find_package(EtcdQt COMPONENTS TestKit)): real etcd servers and
clusters on loopback and a fault-injecting TCP proxy, for testing code that
uses etcd under real faults.")

  set(CPACK_COMPONENTS_ALL Runtime Prometheus Development)
  foreach(_pair Qml:EtcdQtQmlplugin Tools:etcdqt Inspector:etcdqt-inspector TestKit:EtcdQtTestKit)
    string(REPLACE ":" ";" _pair ${_pair})
    list(GET _pair 0 _component)
    list(GET _pair 1 _target)
    if(TARGET ${_target}) # the options can leave parts out of the build
      list(APPEND CPACK_COMPONENTS_ALL ${_component})
    endif()
  endforeach()
  include(CPack)
endmacro()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _etcdqt_configure_cpack)
