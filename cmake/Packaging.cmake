# `cpack -G DEB` (after a build): a Debian package of the installed tree (builder/CMakeLists.txt), whose
# Depends dpkg-shlibdeps reads from the libraries the executable and its modules link, and the outside
# programs a full build runs (XeLaTeX and its fonts are recommended: without them only the PDFs are
# left out).
set(CPACK_PACKAGE_NAME bookbuild)
set(CPACK_PACKAGE_VENDOR "bookbuild contributors")
set(CPACK_PACKAGE_CONTACT "bookbuild contributors <bookbuild@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Builds a multilingual technical book from Markdown into a website, EPUB 3 and PDF")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION text)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The modules in lib/bookbuild are dlopen()ed, not linked; as files of the package dpkg-shlibdeps
# still reads them, so Poppler, librsvg, libzip, libxml2 and Source-highlight are in Depends.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "texlive-xetex, texlive-lang-chinese, texlive-lang-cyrillic, fonts-noto-cjk, fonts-noto-core")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "epubcheck, chromium")
set(CPACK_STRIP_FILES ON)
include(CPack)
