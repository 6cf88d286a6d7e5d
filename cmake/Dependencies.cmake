# Every third-party library comes from a Debian package (scripts/install-deps.sh); nothing is vendored
# or downloaded. Libraries with a CMake package are found by it, the rest by pkg-config or find_path.
find_package(PkgConfig REQUIRED)

# Every `bookbuild` run starts a process, and on the virtual machines builds run on, loading shared
# libraries is a large part of a warm run: a do-nothing program linked with libstdc++, ICU, cmark-gfm
# and zlib took 5.6 ms to start and exit, the same program with those linked statically 3.1 ms, and
# with none 2.2 ms (docs/benchmarks.md, "Seventh session"). So the libraries every run uses come from
# the static archives Debian ships in their -dev packages, when there are (as GNU Nettle below):
# cmark-gfm, ICU's common library and its data, toml++ (compiled here from its headers,
# builder/tomlfile/impl.cpp), and the C++ runtime (-static-libstdc++ on the executable). The
# modules (modules/modules.hpp) keep their shared libraries: they load only when needed. Sanitizer
# and fuzzing builds link everything shared, as the sanitizers expect.
option(BOOKBUILD_STATIC_LIBS "Link the libraries every run uses statically into bookbuild" ON)
if(BOOKBUILD_SANITIZE OR BOOKBUILD_FUZZ)
  set(BOOKBUILD_STATIC_LIBS OFF)
endif()
# cmark-gfm and its GFM extensions (Debian ships a .pc file, no CMake package).
find_path(CMARK_GFM_INCLUDE_DIR cmark-gfm.h REQUIRED)
if(BOOKBUILD_STATIC_LIBS)
  find_library(CMARK_GFM_LIBRARY NAMES libcmark-gfm.a cmark-gfm REQUIRED)
  find_library(CMARK_GFM_EXTENSIONS_LIBRARY NAMES libcmark-gfm-extensions.a cmark-gfm-extensions REQUIRED)
else()
  find_library(CMARK_GFM_LIBRARY cmark-gfm REQUIRED)
  find_library(CMARK_GFM_EXTENSIONS_LIBRARY cmark-gfm-extensions REQUIRED)
endif()
add_library(cmark_gfm::cmark_gfm INTERFACE IMPORTED)
target_include_directories(cmark_gfm::cmark_gfm INTERFACE ${CMARK_GFM_INCLUDE_DIR})
target_link_libraries(cmark_gfm::cmark_gfm INTERFACE ${CMARK_GFM_EXTENSIONS_LIBRARY} ${CMARK_GFM_LIBRARY})

find_package(LibXml2 REQUIRED)
# libzip: Debian's CMake package references tools from another package (zipcmp), so use pkg-config.
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
# Lua 5.4 runs the book's own filters (builder/bookfilters/, docs/filters.md).
pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
find_package(ZLIB REQUIRED)  # the EPUB writer deflates entries itself, in parallel
find_package(pugixml REQUIRED)
# libgit2: the book's repository (HEAD's commit for "view source" links, the remote's web address, the
# revisions of `bookbuild diff`), linked only into the git module bookbuild_git.so (repo/git_module.h).
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
# toml++ from its headers, compiled once in builder/tomlfile/impl.cpp (TOML_IMPLEMENTATION) rather
# than from Debian's libtomlplusplus.so, which would load the shared C++ runtime again.
find_path(TOMLPLUSPLUS_INCLUDE_DIR toml++/toml.h REQUIRED)
add_library(bookbuild_toml INTERFACE)
target_include_directories(bookbuild_toml INTERFACE ${TOMLPLUSPLUS_INCLUDE_DIR})
target_compile_definitions(bookbuild_toml INTERFACE TOML_HEADER_ONLY=0)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ICU REQUIRED COMPONENTS uc i18n)
# ICU's common library for the tool: static with its data where the archives exist.
add_library(bookbuild_icu_uc INTERFACE)
if(BOOKBUILD_STATIC_LIBS)
  find_library(ICU_UC_STATIC_LIBRARY libicuuc.a)
  find_library(ICU_DATA_STATIC_LIBRARY libicudata.a)
endif()
if(BOOKBUILD_STATIC_LIBS AND ICU_UC_STATIC_LIBRARY AND ICU_DATA_STATIC_LIBRARY)
  find_package(Threads REQUIRED)
  target_include_directories(bookbuild_icu_uc INTERFACE ${ICU_INCLUDE_DIRS})
  target_link_libraries(bookbuild_icu_uc INTERFACE ${ICU_UC_STATIC_LIBRARY} ${ICU_DATA_STATIC_LIBRARY}
                        ${CMAKE_DL_LIBS} Threads::Threads)
else()
  target_link_libraries(bookbuild_icu_uc INTERFACE ICU::uc)
endif()
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
# Chart text is measured with FreeType in the fonts fontconfig finds (builder/charts/metrics.cpp).
pkg_check_modules(FREETYPE REQUIRED IMPORTED_TARGET freetype2)
pkg_check_modules(FONTCONFIG REQUIRED IMPORTED_TARGET fontconfig)
# GNU Source-highlight: code blocks are highlighted at build time from its language definitions.
pkg_check_modules(SOURCE_HIGHLIGHT REQUIRED IMPORTED_TARGET source-highlight)

# cpp-httplib: Debian builds it as a compiled library (libcpp-httplib.so) with a .pc file.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
add_library(httplib::httplib INTERFACE IMPORTED)
target_link_libraries(httplib::httplib INTERFACE PkgConfig::HTTPLIB Threads::Threads)

if(BOOKBUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# The other libraries the executable links, static too where Debian ships the archives: Lua (the
# book's filters), FreeType and fontconfig (chart text, with expat, libpng and brotli) and zlib (search
# index, highlight cache). As shared libraries they cost every process start 0.7 ms (a do-nothing
# program: 1.3 ms with them, 0.6 ms without; issue 49). The modules keep the shared ones: Debian's
# archives are not built position-independent, so they cannot go into a module.
# bookbuild_static_or(NAME SHARED_TARGET ARCHIVE...): NAME links the archives, in that order, when all
# are found (and static linking is on), else SHARED_TARGET.
function(bookbuild_static_or name shared)
  add_library(${name} INTERFACE)
  set(archives "")
  foreach(archive IN LISTS ARGN)
    if(NOT BOOKBUILD_STATIC_LIBS)
      break()
    endif()
    string(MAKE_C_IDENTIFIER "BOOKBUILD_ARCHIVE_${archive}" var)
    find_library(${var} ${archive})
    if(NOT ${var})
      set(archives "")
      break()
    endif()
    list(APPEND archives ${${var}})
  endforeach()
  if(archives)
    target_link_libraries(${name} INTERFACE ${archives} m ${CMAKE_DL_LIBS})
  else()
    target_link_libraries(${name} INTERFACE ${shared})
  endif()
  target_include_directories(${name} INTERFACE $<TARGET_PROPERTY:${shared},INTERFACE_INCLUDE_DIRECTORIES>)
endfunction()
bookbuild_static_or(bookbuild_zlib ZLIB::ZLIB libz.a)
bookbuild_static_or(bookbuild_lua PkgConfig::LUA liblua5.4.a)
bookbuild_static_or(bookbuild_fonts PkgConfig::FONTCONFIG libfontconfig.a libfreetype.a libpng16.a
                    libbrotlidec.a libbrotlicommon.a libexpat.a libz.a)
target_include_directories(bookbuild_fonts INTERFACE $<TARGET_PROPERTY:PkgConfig::FREETYPE,INTERFACE_INCLUDE_DIRECTORIES>)
