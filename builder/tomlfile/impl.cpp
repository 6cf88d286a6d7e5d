// toml++'s compiled part, built once here from the headers Debian ships (libtomlplusplus-dev):
// every other file includes <toml++/toml.h> with TOML_HEADER_ONLY=0 (the bookbuild_toml target), so
// the parser is compiled in this translation unit only, and no shared libtomlplusplus is loaded.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
