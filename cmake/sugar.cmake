# Sugar passes of pyptx-codegen (src/sugar/*.c, globbed into the library):
# the "names" pass demangles C++ symbols with libiberty's cplus_demangle
# (Debian/Ubuntu: libiberty-dev, header <libiberty/demangle.h>).
list(APPEND PTX_EXTRA_LIBS iberty)
