# Every wharf target gets the same strict warnings; CI builds with WHARF_WERROR=ON.
function(wharf_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  if(WHARF_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
