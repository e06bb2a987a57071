# sanitize.cmake - sanitizer and fuzzer build options (included from the
# top-level CMakeLists.txt before any target is defined).
#
#   -DPTX_SANITIZE=ON  every target compiled and linked with AddressSanitizer
#                      and UndefinedBehaviorSanitizer; the first report aborts
#                      the program (tools/run-tests.sh builds build-asan so)
#   -DPTX_FUZZ=ON      also build the libFuzzer harnesses of tests/fuzz as
#                      CMake targets (clang only; the fuzz_* ctest tests build
#                      them with tests/fuzz/build.sh whatever this says)
option(PTX_SANITIZE "build with -fsanitize=address,undefined" OFF)
option(PTX_FUZZ "build the libFuzzer harnesses (needs clang)" OFF)

if(PTX_SANITIZE)
  set(PTX_SANITIZE_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
      -fno-sanitize-recover=all)
  add_compile_options(${PTX_SANITIZE_FLAGS})
  add_link_options(${PTX_SANITIZE_FLAGS})
endif()

if(PTX_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PTX_FUZZ=ON needs clang (cmake -DCMAKE_C_COMPILER=clang), "
                        "or use tests/fuzz/build.sh")
  endif()
  # coverage instrumentation for the whole library; the harnesses add
  # -fsanitize=fuzzer at link time (tests/fuzz/tests.cmake)
  set(PTX_FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined
      -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${PTX_FUZZ_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()

# -DPTX_FAULTS=ON: ptx_fault_after (src/util/alloc.h) makes a chosen
# allocation fail, for tests/faults; tools/run-tests.sh turns it on in the
# sanitizer build.  Inert until called.
option(PTX_FAULTS "build the allocation-failure hook (ptx_fault_after)" OFF)
if(PTX_FAULTS)
  add_compile_definitions(PTX_FAULTS)
endif()
