# python.cmake - the Python package pyptx-c (import pyptx_c): the extension
# pyptx_c._core over libptx (src/python/), the pure-Python part
# (python/pyptx_c/), and, in a wheel, the programs as its scripts.
#
# scikit-build-core (pyproject.toml) sets SKBUILD and builds only what the
# wheel holds.  A plain build makes the same package in BUILD/python, for
# the tests (tests/python/), when PTX_PYTHON is on: the default where the
# Python of PTX_VENV_PYTHON (or the first python3) has its headers.
if(SKBUILD)
  set(PTX_PYTHON ON)
else()
  option(PTX_PYTHON "build the Python extension into BUILD/python" ON)
  if(PTX_PYTHON AND NOT Python_EXECUTABLE AND EXISTS "${PTX_VENV_PYTHON}")
    set(Python_EXECUTABLE "${PTX_VENV_PYTHON}")
  endif()
endif()
if(NOT PTX_PYTHON)
  return()
endif()
find_package(Python 3.10 COMPONENTS Interpreter Development.Module)
if(NOT Python_Development.Module_FOUND)
  if(SKBUILD)
    message(FATAL_ERROR "the Python headers are missing (Debian: python3-dev)")
  endif()
  message(WARNING "Python headers not found: no pyptx_c extension (Debian: python3-dev)")
  return()
endif()

python_add_library(_core MODULE WITH_SOABI src/python/module.c src/python/tree.c
  src/python/verify.c src/python/trees.c)
target_include_directories(_core PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/python
  ${CMAKE_CURRENT_SOURCE_DIR}/src)   # (util/alloc.h: the PTX_FAULTS hook)
target_link_libraries(_core PRIVATE ptx)
ptx_pgo(_core)

file(GLOB PTX_PY_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/python/pyptx_c/*)
if(SKBUILD)
  install(TARGETS _core LIBRARY DESTINATION pyptx_c)
  foreach(src ${PTX_CLI_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    install(TARGETS pyptx-${name} RUNTIME DESTINATION ${SKBUILD_SCRIPTS_DIR})
  endforeach()
else()
  set(PTX_PY_DIR ${CMAKE_BINARY_DIR}/python/pyptx_c)
  set_target_properties(_core PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PTX_PY_DIR})
  foreach(f ${PTX_PY_FILES})
    get_filename_component(name ${f} NAME)
    configure_file(${f} ${PTX_PY_DIR}/${name} COPYONLY)
  endforeach()
endif()
