# Debian's libcvc5-dev ships no CMake package file; find the header and library directly.
find_path(CVC5_INCLUDE_DIR cvc5/cvc5.h)
find_library(CVC5_LIBRARY cvc5)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CVC5 DEFAULT_MSG CVC5_LIBRARY CVC5_INCLUDE_DIR)
if(CVC5_FOUND AND NOT TARGET CVC5::cvc5)
  add_library(CVC5::cvc5 UNKNOWN IMPORTED)
  set_target_properties(CVC5::cvc5 PROPERTIES IMPORTED_LOCATION "${CVC5_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${CVC5_INCLUDE_DIR}")
endif()
