# Install rules (cmake --install): the CLI, the plugin, the headers, the docs
# and the CMake package (find_package(BarrierPair)).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BARRIERPAIR_INSTALL_PLUGINDIR "${CMAKE_INSTALL_LIBDIR}/barrierpair")
set(BARRIERPAIR_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/BarrierPair")
set(BARRIERPAIR_INSTALL_PRIMITIVESDIR "${CMAKE_INSTALL_DATADIR}/barrierpair/primitives")

if(TARGET barrierpair-cli)
  install(TARGETS barrierpair-cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
if(TARGET barrierpair-litmus)
  install(TARGETS barrierpair-litmus RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
if(TARGET barrierpair-clangd)
  install(TARGETS barrierpair-clangd RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
install(TARGETS barrierpair LIBRARY DESTINATION "${BARRIERPAIR_INSTALL_PLUGINDIR}")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/include/barrierpair"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(FILES "${CMAKE_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
# Primitive files for libraries with barriers of their own (docs/primitives.md).
install(DIRECTORY "${CMAKE_SOURCE_DIR}/share/primitives/"
        DESTINATION "${BARRIERPAIR_INSTALL_PRIMITIVESDIR}" FILES_MATCHING PATTERN "*.def")

configure_package_config_file(
  "${CMAKE_SOURCE_DIR}/cmake/BarrierPairConfig.cmake.in"
  "${CMAKE_BINARY_DIR}/cmake/BarrierPairConfig.cmake"
  INSTALL_DESTINATION "${BARRIERPAIR_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_BINDIR BARRIERPAIR_INSTALL_PLUGINDIR CMAKE_INSTALL_INCLUDEDIR
            BARRIERPAIR_INSTALL_PRIMITIVESDIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/cmake/BarrierPairConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/cmake/BarrierPairConfig.cmake"
              "${CMAKE_BINARY_DIR}/cmake/BarrierPairConfigVersion.cmake"
              "${CMAKE_SOURCE_DIR}/cmake/BarrierPair.cmake"
        DESTINATION "${BARRIERPAIR_INSTALL_CMAKEDIR}")
