# Install into a temporary prefix, build the example against it, package.
add_test(NAME install_and_package
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/install/check.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
# the example, built in-tree against the library
add_executable(opcount ${CMAKE_SOURCE_DIR}/examples/opcount.c)
target_link_libraries(opcount PRIVATE ptx)
add_test(NAME example_opcount
  COMMAND opcount ${CMAKE_SOURCE_DIR}/tests/install/sample.ptx)
file(READ ${CMAKE_SOURCE_DIR}/tests/install/sample.opcount PTX_OPCOUNT_EXPECT)
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" PTX_OPCOUNT_RE "${PTX_OPCOUNT_EXPECT}")
set_tests_properties(example_opcount PROPERTIES PASS_REGULAR_EXPRESSION "^${PTX_OPCOUNT_RE}$")
# libptx.so exports exactly what include/ptx/*.h declares (cmake/exports.cmake)
add_test(NAME exports
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/install/exports.py
          $<TARGET_FILE:ptx_shared> ${CMAKE_SOURCE_DIR}/include)
# the stages include only those below them (tests/install/layers.py)
add_test(NAME layers
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/install/layers.py ${CMAKE_SOURCE_DIR}/src)
