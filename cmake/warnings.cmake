# Every wharf target gets the same strict warnings; CI builds with WHARF_WERROR=ON.
function(wharf_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  # Designated initializers that leave members to their defaults are the point of
  # default member initializers; -Wextra would flag every one of them.
  target_compile_options(${target} PRIVATE -Wno-missing-field-initializers)
  # GCC 12 misreports Asio's coroutine frame allocator as a mismatched new/delete when
  # optimising (seen at -O1 in the sanitizer build); the pairing is Asio's own and correct.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-mismatched-new-delete)
  endif()
  if(WHARF_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
