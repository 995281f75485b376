# cmake/soname.cmake: sl_soname(LIB OUT): the soname of shared library LIB
# (a path, as pkg-config's LINK_LIBRARIES give it), for a dlopen of the
# very library the build found (src/source/git/git_lazy.c,
# src/exec/curl_lazy.c). Read with readelf; without it, or for a library
# that states none, the name of the file LIB resolves to.
function(sl_soname lib out)
  find_program(SL_READELF NAMES readelf ${CMAKE_READELF})
  set(name "")
  if(SL_READELF)
    execute_process(COMMAND ${SL_READELF} -d ${lib} OUTPUT_VARIABLE dyn ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND dyn MATCHES "Library soname: \\[([^]]+)\\]")
      set(name "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(name STREQUAL "")
    get_filename_component(real ${lib} REALPATH)
    get_filename_component(name ${real} NAME)
  endif()
  set(${out} "${name}" PARENT_SCOPE)
endfunction()
