# Every third-party library comes from a Debian package (scripts/install-deps.sh); nothing is vendored
# or downloaded. Libraries with a CMake package are found by it, the rest by pkg-config or find_path.
find_package(PkgConfig REQUIRED)

# cmark-gfm and its GFM extensions (Debian ships a .pc file, no CMake package).
find_path(CMARK_GFM_INCLUDE_DIR cmark-gfm.h REQUIRED)
find_library(CMARK_GFM_LIBRARY cmark-gfm REQUIRED)
find_library(CMARK_GFM_EXTENSIONS_LIBRARY cmark-gfm-extensions REQUIRED)
add_library(cmark_gfm::cmark_gfm INTERFACE IMPORTED)
target_include_directories(cmark_gfm::cmark_gfm INTERFACE ${CMARK_GFM_INCLUDE_DIR})
target_link_libraries(cmark_gfm::cmark_gfm INTERFACE ${CMARK_GFM_EXTENSIONS_LIBRARY} ${CMARK_GFM_LIBRARY})

find_package(LibXml2 REQUIRED)
# libzip: Debian's CMake package references tools from another package (zipcmp), so use pkg-config.
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
find_package(ZLIB REQUIRED)  # the EPUB writer deflates entries itself, in parallel
find_package(pugixml REQUIRED)
find_package(tomlplusplus REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ICU REQUIRED COMPONENTS uc i18n)
# GNU Nettle for SHA-256/SHA-1: its static archive when Debian ships one (nettle-dev does), so that no
# run loads a shared crypto library for a few digests (the shared libcrypto cost ~5 ms per process).
find_path(NETTLE_INCLUDE_DIR nettle/sha2.h REQUIRED)
find_library(NETTLE_LIBRARY NAMES libnettle.a nettle REQUIRED)
add_library(nettle::nettle INTERFACE IMPORTED)
target_include_directories(nettle::nettle INTERFACE ${NETTLE_INCLUDE_DIR})
target_link_libraries(nettle::nettle INTERFACE ${NETTLE_LIBRARY})
find_package(Threads REQUIRED)
pkg_check_modules(POPPLER_CPP REQUIRED IMPORTED_TARGET poppler-cpp)
# SVG figures are converted to PDF for XeLaTeX with librsvg drawing on a cairo PDF surface.
pkg_check_modules(RSVG REQUIRED IMPORTED_TARGET librsvg-2.0)
pkg_check_modules(CAIRO_PDF REQUIRED IMPORTED_TARGET cairo-pdf)
# GNU Source-highlight: code blocks are highlighted at build time from its language definitions.
pkg_check_modules(SOURCE_HIGHLIGHT REQUIRED IMPORTED_TARGET source-highlight)

# cpp-httplib: Debian builds it as a compiled library (libcpp-httplib.so) with a .pc file.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
add_library(httplib::httplib INTERFACE IMPORTED)
target_link_libraries(httplib::httplib INTERFACE PkgConfig::HTTPLIB Threads::Threads)

if(BOOKBUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
