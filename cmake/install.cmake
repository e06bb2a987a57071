# Shared library, installation, pkg-config, CMake package, Debian package.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(ptx_shared SHARED $<TARGET_OBJECTS:ptx_obj>)
set_target_properties(ptx_shared PROPERTIES
  OUTPUT_NAME ptx VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_include_directories(ptx_shared PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(ptx_shared PRIVATE ${PTX_EXTRA_LIBS})
include(${CMAKE_CURRENT_LIST_DIR}/exports.cmake)
set_target_properties(ptx PROPERTIES EXPORT_NAME ptx_static)
set_target_properties(ptx_shared PROPERTIES EXPORT_NAME ptx)

install(TARGETS ptx ptx_shared EXPORT ptxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(src ${PTX_CLI_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  install(TARGETS pyptx-${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
install(DIRECTORY include/ptx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
file(GLOB PTX_MAN1 CONFIGURE_DEPENDS man/*.1)
file(GLOB PTX_MAN3 CONFIGURE_DEPENDS man/*.3)
install(FILES ${PTX_MAN1} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PTX_MAN3} DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)

# pkg-config: the static library's own dependencies go in Libs.private.
set(PTX_PC_PRIVATE "")
foreach(lib ${PTX_EXTRA_LIBS})
  string(APPEND PTX_PC_PRIVATE " -l${lib}")
endforeach()
configure_file(cmake/ptx.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ptx.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ptx.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# find_package(ptx): targets ptx::ptx (shared) and ptx::ptx_static.
install(EXPORT ptxTargets NAMESPACE ptx::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ptx)
configure_package_config_file(cmake/ptxConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ptxConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ptx)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ptxConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ptxConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/ptxConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ptx)

# cpack -G DEB
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pyptx-c)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "pyptx-c maintainers <pyptx-c@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "PTX toolchain: lossless parser library, round-trip, codegen and diff tools")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
