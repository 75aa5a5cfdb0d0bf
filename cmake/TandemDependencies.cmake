# Every dependency is a Debian package (scripts/install-deps.sh installs them). A missing one
# stops the configure step with the name of the Debian package to install.
function(tandem_require found what debian_packages)
  if(NOT ${found})
    message(FATAL_ERROR "${what} not found. Install the Debian package(s) ${debian_packages}; "
                        "`make deps` (scripts/install-deps.sh) installs every dependency.")
  endif()
endfunction()

find_package(Boost 1.74 QUIET)
tandem_require(Boost_FOUND "Boost >= 1.74"
               "libboost-dev libboost-program-options-dev")
find_package(fmt QUIET)
tandem_require(fmt_FOUND "fmt" libfmt-dev)
find_package(nlohmann_json 3.10 QUIET)
tandem_require(nlohmann_json_FOUND "nlohmann_json >= 3.10" nlohmann-json3-dev)
find_package(doctest QUIET)
tandem_require(doctest_FOUND "doctest" doctest-dev)
find_package(PkgConfig QUIET)
tandem_require(PKG_CONFIG_FOUND "pkg-config" pkg-config)
pkg_check_modules(XXHASH QUIET IMPORTED_TARGET libxxhash)
tandem_require(XXHASH_FOUND "libxxhash (pkg-config)" libxxhash-dev)
pkg_check_modules(Z3 QUIET IMPORTED_TARGET z3)
tandem_require(Z3_FOUND "z3 (pkg-config)" libz3-dev)
find_package(CVC5 QUIET)
tandem_require(CVC5_FOUND "cvc5" libcvc5-dev)

message(STATUS "Tandem dependencies: Boost ${Boost_VERSION}, fmt ${fmt_VERSION}, "
               "nlohmann_json ${nlohmann_json_VERSION}, doctest ${doctest_VERSION}, "
               "xxhash ${XXHASH_VERSION}, z3 ${Z3_VERSION}, cvc5 ${CVC5_LIBRARY}")
