// What a run looked at: the files it read or looked for, and the folders it listed. Every place that
// reads the book, the tool's data or the repository notes what it looks at here, so that the next run
// of the same command can tell that nothing it depends on has changed (inputs/record.hpp).
//
// Notes are taken only while recording (start()); otherwise a note costs one load of a flag. A path
// is noted as given, made absolute against the current folder; what it is (its identity, or that it
// is missing) is looked at when the record is written, after the run.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace bb::inputs {

// Begins recording for this process (the command line calls it first); stop() ends it for a
// process that will not write a record (`site --serve`, which would note every rebuild's reads).
void start();
void stop();
bool recording();

// A file that was read or looked for: the record keeps its identity (device, inode, size, times),
// or that it was missing. Symbolic links are followed, so a link pointed elsewhere is a change.
void note_file(std::string_view path);
inline void note_file(const std::filesystem::path& path) {
  note_file(std::string_view(path.native()));
}
inline void note_file(const std::string& path) {
  note_file(std::string_view(path));
}
inline void note_file(const char* path) {
  note_file(std::string_view(path));
}
// A folder whose entries were listed, or in which files were read that need not each be noted: the
// record keeps every entry's name and kind, and each file's identity (not a sub-folder's).
void note_folder(std::string_view dir);
inline void note_folder(const std::filesystem::path& dir) {
  note_folder(std::string_view(dir.native()));
}
inline void note_folder(const std::string& dir) {
  note_folder(std::string_view(dir));
}
inline void note_folder(const char* dir) {
  note_folder(std::string_view(dir));
}
// A folder and every folder below it, as note_folder.
void note_tree(std::string_view dir);
inline void note_tree(const std::filesystem::path& dir) {
  note_tree(std::string_view(dir.native()));
}
inline void note_tree(const std::string& dir) {
  note_tree(std::string_view(dir));
}
inline void note_tree(const char* dir) {
  note_tree(std::string_view(dir));
}

// The run did something a record cannot repeat (wrote outside what the command says it writes,
// printed outside std::cout and std::cerr): no record is written for it.
void spoil();
bool spoiled();

// What was noted, each list sorted and without repeats (for inputs/record.cpp and the tests).
struct Noted {
  std::vector<std::string> files, folders, trees;
};
Noted noted();

}  // namespace bb::inputs
