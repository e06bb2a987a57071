# Sugar passes of pyptx-codegen (src/sugar/*.c, globbed into the library):
# the "names" pass demangles C++ symbols with libiberty's cplus_demangle
# (Debian/Ubuntu: libiberty-dev, header <libiberty/demangle.h>).  Without
# it (a pip install from the sdist on a bare machine) the library still
# builds: mangled names then stay as they are, which is as faithful, only
# less readable.
find_path(PTX_IBERTY_INCLUDE libiberty/demangle.h)
find_library(PTX_IBERTY_LIB iberty)
if(PTX_IBERTY_INCLUDE AND PTX_IBERTY_LIB)
  list(APPEND PTX_EXTRA_LIBS iberty)    # (a name: ptx.pc says -liberty)
  target_compile_definitions(ptx_obj PRIVATE PTX_HAVE_LIBIBERTY=1)
else()
  message(WARNING "libiberty (libiberty-dev) not found: the names pass will not demangle C++ names")
  target_compile_definitions(ptx_obj PRIVATE PTX_HAVE_LIBIBERTY=0)
endif()
