/* The entry points of the git module (bookbuild_git.so: builder/repo/git_module.cpp and
   git_revision_module.cpp), looked up with dlsym: libgit2 and the libraries it pulls in (krb5, GSSAPI,
   mbedTLS, libssh2, libcrypto, PCRE2, …: about twenty, 3.4 ms of every process start on the build
   machine) are loaded only by the runs that read a git repository, not by every run. Every libgit2 call
   of bookbuild is behind these.

   Each entry point opens the repository of the work tree `work_tree` (the folder holding `.git`) alone:
   no search upwards, no environment (GIT_DIR and the like), no configuration outside the repository, an
   object database of its own objects folder without the alternates, and nothing that talks to a remote.
   Strings go out through callbacks, valid only during the call. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* Called with each file a result was read from (an input of the run). */
typedef void (*bookbuild_git_note)(void* context, const char* path);
/* Called with a string the entry point returns: a result, or an error's message. */
typedef void (*bookbuild_git_text)(void* context, const char* text);

/* Reads HEAD. Returns 0 when the repository cannot be opened; otherwise 1, with HEAD's 40-hex commit
   in hex[0..41) ("" when HEAD names no commit) and its committer time in *commit_time (-1 when
   unknown). Notes the files HEAD's commit is named by. */
int bookbuild_git_head_v1(const char* work_tree, char hex[41], long long* commit_time,
                          bookbuild_git_note note, void* context);
typedef int (*bookbuild_git_head_fn)(const char*, char*, long long*, bookbuild_git_note, void*);

/* The URL of the remote `origin`, else of the only remote, as configured (not normalized): given to
   `url` and 1 returned. 0 when the repository cannot be opened or has no such remote or URL. Notes
   `<commondir>/config` once the repository is open. */
int bookbuild_git_remote_url_v1(const char* work_tree, bookbuild_git_note note, bookbuild_git_text url,
                                void* context);
typedef int (*bookbuild_git_remote_url_fn)(const char*, bookbuild_git_note, bookbuild_git_text, void*);

/* The commit `spec` names ("main", "HEAD~1", a hash; peeled to a commit) in hex[0..41), and 1. 0, with
   `error` called, when the repository cannot be opened or the name resolves to no commit. */
int bookbuild_git_resolve_v1(const char* work_tree, const char* spec, char hex[41], bookbuild_git_text error,
                             void* context);
typedef int (*bookbuild_git_resolve_fn)(const char*, const char*, char*, bookbuild_git_text, void*);

/* The merge-base of HEAD with the first of these that names a commit and has one with HEAD:
   origin/<base_ref> and <base_ref> (when base_ref is neither null nor ""), the target of
   refs/remotes/origin/HEAD, origin/main, main, origin/master, master. Returns 1 with the merge-base in
   hex[0..41) and the branch's name given to `name`; 0, with `error` called, otherwise. */
int bookbuild_git_default_base_v1(const char* work_tree, const char* base_ref, char hex[41],
                                  bookbuild_git_text name, bookbuild_git_text error, void* context);
typedef int (*bookbuild_git_default_base_fn)(const char*, const char*, char*, bookbuild_git_text,
                                             bookbuild_git_text, void*);

/* Writes the folder `inside` ("" for the top; `/`-separated) of commit `commit`'s tree (40 hex) into the
   existing folder `dest`, blob by blob (never a checkout): only regular files and folders (symbolic
   links and submodules are left out), names git would refuse refused, at most `max_bytes` of files in
   all. `spec` names the revision in messages. Returns 1; 0, with `error` called, when it cannot (what
   was written stays: `dest` is the caller's to remove). */
int bookbuild_git_write_tree_v1(const char* work_tree, const char* commit, const char* inside,
                                const char* spec, const char* dest, unsigned long long max_bytes,
                                bookbuild_git_text error, void* context);
typedef int (*bookbuild_git_write_tree_fn)(const char*, const char*, const char*, const char*, const char*,
                                           unsigned long long, bookbuild_git_text, void*);

#ifdef __cplusplus
}
#endif
