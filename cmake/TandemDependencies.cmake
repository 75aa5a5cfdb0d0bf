# Every dependency is a Debian package (scripts/install-deps.sh installs them).
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(doctest REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET z3)
find_package(CVC5 REQUIRED)
