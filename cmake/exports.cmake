# libptx.so exports the public API and nothing else: the functions that
# include/ptx/*.h name, listed at configure time in a linker version script
# (every other symbol local: the passes' sg_*/cg_*, the diff's pd_*, and
# libiberty's cplus_*/xmalloc, which would clash with a program's own).
# A name the headers mention that is no function (an inline one, a name in
# a comment) matches no symbol and exports nothing; tests/install/exports.py
# checks the exports against the declarations themselves.
file(GLOB PTX_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/include/ptx/*.h)
set(PTX_EXPORTS "")
foreach(h ${PTX_PUBLIC_HEADERS})
  file(READ ${h} text)
  string(REGEX MATCHALL "ptx_[a-z0-9_]+ *\\(" calls "${text}")
  foreach(c ${calls})
    string(REGEX REPLACE " *\\($" "" name "${c}")
    list(APPEND PTX_EXPORTS "${name}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES PTX_EXPORTS)
list(SORT PTX_EXPORTS)
list(JOIN PTX_EXPORTS ";\n    " PTX_EXPORT_LINES)
set(PTX_VERSION_SCRIPT ${CMAKE_CURRENT_BINARY_DIR}/ptx.map)
file(WRITE ${PTX_VERSION_SCRIPT}.in "{\n  global:\n    ${PTX_EXPORT_LINES};\n  local: *;\n};\n")
configure_file(${PTX_VERSION_SCRIPT}.in ${PTX_VERSION_SCRIPT} COPYONLY)
target_link_options(ptx_shared PRIVATE -Wl,--version-script=${PTX_VERSION_SCRIPT})
set_target_properties(ptx_shared PROPERTIES LINK_DEPENDS ${PTX_VERSION_SCRIPT})
