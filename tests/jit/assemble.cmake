# cmake -DPTXAS=... -DSRC=tests/jit/data -DOUT=dir -P assemble.cmake
# Assembles the test kernels with ptxas (k.ptx twice) and writes PTX files
# for the stand-in driver (fake_cuda.c) that "compile" to those cubins.
file(MAKE_DIRECTORY ${OUT})
foreach(pair k:k k:k_again k_ws:k_ws k_changed:k_changed k_renamed:k_renamed
        k_reordered:k_reordered)
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 in)
  list(GET pair 1 out)
  execute_process(COMMAND ${PTXAS} -arch=sm_90a ${SRC}/${in}.ptx
                          -o ${OUT}/${out}.cubin
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ptxas ${in}.ptx failed (${rc})")
  endif()
  file(WRITE ${OUT}/fake_${out}.ptx "// FAKE_CUBIN: ${OUT}/${out}.cubin\n")
endforeach()
file(WRITE ${OUT}/fake_reject.ptx "// FAKE_REJECT\n")
