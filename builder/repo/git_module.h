/* The entry point of the git module (bookbuild_git.so, builder/repo/git_module.cpp), looked up with
   dlsym: libgit2 and the libraries it pulls in (krb5, GSSAPI, mbedTLS, libssh2, libcrypto, PCRE2, …:
   about twenty, 3.4 ms of every process start on the build machine) are loaded only by the runs of a
   book that lies in a git work tree, not by every run. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Called with each file HEAD's commit is named by (valid only during the call). */
typedef void (*bookbuild_git_note)(void* context, const char* path);

/* Opens the repository of the work tree `work_tree` alone (no search upwards, no environment, no
   configuration outside it, an object database of its own objects folder without the alternates) and
   reads HEAD. Returns 0 when it cannot be opened; otherwise 1, with HEAD's 40-hex commit in hex[0..41)
   ("" when HEAD names no commit) and its committer time in *commit_time (-1 when unknown). */
int bookbuild_git_head_v1(const char* work_tree, char hex[41], long long* commit_time,
                          bookbuild_git_note note, void* context);
typedef int (*bookbuild_git_head_fn)(const char*, char*, long long*, bookbuild_git_note, void*);

#ifdef __cplusplus
}
#endif
