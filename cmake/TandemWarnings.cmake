# Warnings are errors everywhere in the project's own code.
#
# TANDEM_SANITIZE (declared in the top-level CMakeLists.txt) builds everything with
# AddressSanitizer (with its leak checker) and UndefinedBehaviorSanitizer. The flags are set for
# the whole directory tree, so they reach the compile and the link of every target defined after
# this file is included (libraries, the tandem executable, test binaries, benches), including
# targets that never call tandem_set_warnings. Any UB report aborts the process
# (-fno-sanitize-recover=all), so a test that triggers one fails.
if(TANDEM_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "TANDEM_SANITIZE needs GCC or Clang (got ${CMAKE_CXX_COMPILER_ID})")
  endif()
  set(TANDEM_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all)
  # -O1, as the ASan documentation advises for reasonable speed: the sanitizer suite ran its
  # unit binary about 11 times slower than Release at -O0. Assertions stay on (no NDEBUG).
  add_compile_options(${TANDEM_SANITIZER_FLAGS} -fno-omit-frame-pointer -O1)
  add_link_options(${TANDEM_SANITIZER_FLAGS})
  message(STATUS "Tandem: building with ASan + UBSan (${TANDEM_SANITIZER_FLAGS}, -O1)")
endif()

# TANDEM_FUZZ instruments everything for libFuzzer's coverage feedback, with ASan and UBSan; the
# harnesses of fuzz/ add the fuzzer's main at their link.
if(TANDEM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TANDEM_FUZZ needs Clang (CMAKE_CXX_COMPILER=clang++), got ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# GCC 12's middle-end warnings misfire on libstdc++'s own std::string and containers in optimized
# builds (GCC PR 105329, 105651: a bogus -Wrestrict on `"x" + std::to_string(n)` at -O2/-O3, which
# breaks the Release build). -Wrestrict is off for GCC 12; the other flow-based warnings known to
# misfire there stay visible but do not stop the build.
set(TANDEM_COMPILER_WARNING_FIXES)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  set(TANDEM_COMPILER_WARNING_FIXES -Wno-restrict -Wno-error=array-bounds
      -Wno-error=stringop-overflow -Wno-error=stringop-overread)
endif()

function(tandem_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror
                         -Wno-unused-parameter ${TANDEM_COMPILER_WARNING_FIXES})
  if(TANDEM_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # In a unity batch every source is an included file, so GCC flags a class whose member has a
    # type from that source's anonymous namespace (a pimpl's Impl): harmless in one batch.
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
  if(TANDEM_SANITIZE)
    # Also carried by the target itself, so a consumer outside this tree that links a Tandem
    # library gets the sanitizer runtime too.
    target_compile_options(${target} PUBLIC ${TANDEM_SANITIZER_FLAGS} -fno-omit-frame-pointer)
    target_link_options(${target} PUBLIC ${TANDEM_SANITIZER_FLAGS})
    # GCC's flow warnings are unreliable under the sanitizers' instrumentation (its manual says
    # so for -Wmaybe-uninitialized); at -O1 it misfires inside libstdc++'s <regex>. The Release
    # build keeps it as an error.
    target_compile_options(${target} PRIVATE -Wno-error=maybe-uninitialized)
  endif()
endfunction()
