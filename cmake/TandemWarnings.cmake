# Warnings are errors everywhere in the project's own code.
function(tandem_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror
                         -Wno-unused-parameter)
  if(TANDEM_SANITIZE)
    target_compile_options(${target} PUBLIC -fsanitize=address,undefined
                           -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
endfunction()
