/* The entry point of the ZIP module (bookbuild_zip.so, builder/epub/zip_module.cpp), looked up with
   dlsym: libzip and the libraries it pulls in (libcrypto, bzip2) are loaded by the runs that write or
   read an EPUB, not by every run. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bookbuild_zip_entry {
  const char* name; /* UTF-8 */
  const char* data;
  size_t size;
  int compress;  /* deflate, else stored */
  int unchanged; /* the caller knows these bytes to be those of the earlier archive's entry of this name */
} bookbuild_zip_entry;

typedef struct bookbuild_zip_reader bookbuild_zip_reader;

/* Called with bytes that are valid only during the call. */
typedef void (*bookbuild_zip_sink)(void* context, const char* data, size_t size);

typedef struct bookbuild_zip_functions {
  /* Writes the entries, in order, as one archive with the MS-DOS UTC time of `mtime` on every entry,
     and hands its bytes to `sink` once. Returns 0, or non-zero with a message in error. `earlier`
     (NULL, or `earlier_size` bytes of an archive this module wrote) offers deflate streams to reuse:
     an entry marked `unchanged` keeps the stream of the earlier entry of its name when that entry's
     size and CRC-32 agree; every other entry is deflated. */
  int (*write)(const bookbuild_zip_entry* entries, size_t count, long long mtime, const char* earlier,
               size_t earlier_size, bookbuild_zip_sink sink, void* context, char* error, size_t error_size);
  /* Opens the archive in data[0..size) (which must outlive the reader) with libzip's consistency
     checks. Returns NULL with a message in error when it is not a consistent ZIP archive. */
  bookbuild_zip_reader* (*open)(const char* data, size_t size, char* error, size_t error_size);
  size_t (*count)(const bookbuild_zip_reader* reader);
  /* Entry i: its name (valid while the reader is open), whether it is stored, its size. 0 on success. */
  int (*entry)(const bookbuild_zip_reader* reader, size_t i, const char** name, int* stored, uint64_t* size);
  int (*contains)(const bookbuild_zip_reader* reader, const char* name);
  /* The uncompressed content of the entry to `sink`. Returns 0, or non-zero when there is no such entry
     or it cannot be read whole. */
  int (*read)(const bookbuild_zip_reader* reader, const char* name, bookbuild_zip_sink sink, void* context);
  void (*close)(bookbuild_zip_reader* reader);
} bookbuild_zip_functions;

/* "_v2": write takes an earlier archive; a stale module without it is refused by name. */
const bookbuild_zip_functions* bookbuild_zip_v2(void);
typedef const bookbuild_zip_functions* (*bookbuild_zip_fn)(void);

#ifdef __cplusplus
}
#endif
