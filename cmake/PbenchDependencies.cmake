# The Debian packages the orchestrator's sources need (scripts/install-deps installs them),
# found once for the whole build (CMakeLists.txt) and for the libFuzzer build, which compiles
# some of those sources on its own (fuzz/CMakeLists.txt).
find_package(SQLite3 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(Boost 1.74 REQUIRED COMPONENTS filesystem)
find_package(valijson REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
