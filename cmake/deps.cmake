# Dependencies of the library beyond libc (included by the top CMakeLists.txt
# after target ptx_obj is defined).
#
# src/jit talks to the CUDA driver through dlopen("libcuda.so.1") at run
# time, so the build needs only the toolkit's cuda.h header (for types,
# constants and the versioned entry-point names) and libdl.  Without cuda.h
# the jit module builds as a stub whose ptx_jit_open always reports "no CUDA
# driver".

list(APPEND PTX_EXTRA_LIBS ${CMAKE_DL_LIBS})
# threads: a large module's parse (src/front/parse_jobs.c), diff's builds
list(APPEND PTX_EXTRA_LIBS pthread)

find_path(PTX_CUDA_INCLUDE_DIR cuda.h
  HINTS $ENV{CUDA_HOME}/include $ENV{CUDA_PATH}/include
  PATHS /usr/local/cuda/include /opt/cuda/include
  DOC "directory holding CUDA's cuda.h (driver API header)")
if(PTX_CUDA_INCLUDE_DIR)
  message(STATUS "cuda.h: ${PTX_CUDA_INCLUDE_DIR} (JIT checks available)")
  # SYSTEM: keep -Wall -Wextra quiet about the header itself.
  target_include_directories(ptx_obj SYSTEM PRIVATE ${PTX_CUDA_INCLUDE_DIR})
  target_compile_definitions(ptx_obj PRIVATE PTX_HAVE_CUDA_H=1)
else()
  message(STATUS "cuda.h not found: the JIT module is a stub (set PTX_CUDA_INCLUDE_DIR)")
  target_compile_definitions(ptx_obj PRIVATE PTX_HAVE_CUDA_H=0)
endif()
