// The one file reader and writer (inputs/file_io.hpp): whole files within the limit, and every way a
// book's file can be wrong for reading — missing, a folder, a FIFO (which must not block), a device
// behind a symbolic link (which never ends), too large — and a whole-file write that leaves nothing
// behind when it fails.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "inputs/file_io.hpp"
#include "test_support.hpp"

namespace bb::inputs {
namespace {

namespace fs = std::filesystem;

TEST(FileIo, ReadsAWholeFileWithinTheLimit) {
  bb::test::TempDir tmp("bb-fileio");
  const std::string bytes = std::string("a\0b\n", 4) + std::string(100000, 'x');
  bb::test::write_file(tmp.path / "f", bytes);
  auto r = read_bounded(tmp.path / "f", bytes.size());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.bytes, bytes);
  EXPECT_EQ(r.size, bytes.size());
  bb::test::write_file(tmp.path / "empty", "");
  EXPECT_TRUE(read_bounded(tmp.path / "empty", 0).ok());
}

TEST(FileIo, RefusesWhatIsNotAReadableRegularFileWithinTheLimit) {
  bb::test::TempDir tmp("bb-fileio");
  bb::test::write_file(tmp.path / "big", std::string(1001, 'x'));
  auto big = read_bounded(tmp.path / "big", 1000);
  EXPECT_EQ(big.status, ReadStatus::TooLarge);
  EXPECT_TRUE(big.bytes.empty());
  EXPECT_EQ(read_problem(big, 1000).find("the file is"), 0u) << read_problem(big, 1000);
  EXPECT_EQ(read_bounded(tmp.path / "missing", 10).status, ReadStatus::CannotOpen);
  EXPECT_EQ(read_bounded(tmp.path, 10).status, ReadStatus::NotRegular);
  ASSERT_EQ(::mkfifo((tmp.path / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(read_bounded(tmp.path / "fifo", 10).status, ReadStatus::NotRegular);  // and returns at once
  fs::create_symlink("/dev/zero", tmp.path / "zero");
  EXPECT_EQ(read_bounded(tmp.path / "zero", 10).status, ReadStatus::NotRegular);
}

TEST(FileIo, WritesWholeAndReplaces) {
  bb::test::TempDir tmp("bb-fileio");
  const fs::path file = tmp.path / "a" / "b" / "out.bin";
  ASSERT_TRUE(write_atomic(file, "first"));
  ASSERT_TRUE(write_atomic(file, "second"));
  EXPECT_EQ(bb::test::read_file(file), "second");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(file.parent_path())) ++entries;
  EXPECT_EQ(entries, 1u) << "no temporary file left beside it";
}

TEST(FileIo, AFailedWriteLeavesNothing) {
  bb::test::TempDir tmp("bb-fileio");
  fs::create_directories(tmp.path / "target-is-a-folder");
  bb::test::write_file(tmp.path / "target-is-a-folder" / "x", "keep");
  EXPECT_FALSE(write_atomic(tmp.path / "target-is-a-folder", "bytes"));  // rename over a folder fails
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path)) ++entries;
  EXPECT_EQ(entries, 1u);
  EXPECT_EQ(bb::test::read_file(tmp.path / "target-is-a-folder" / "x"), "keep");
}

TEST(FileIo, TheDescriptorClosesOnceAndMoves) {
  bb::test::TempDir tmp("bb-fileio");
  bb::test::write_file(tmp.path / "f", "x");
  Fd a(::open((tmp.path / "f").c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(a);
  const int raw = a.get();
  Fd b(std::move(a));
  EXPECT_FALSE(a);
  EXPECT_EQ(b.get(), raw);
  EXPECT_TRUE(b.close());
  EXPECT_FALSE(b);
  EXPECT_TRUE(b.close());
  EXPECT_EQ(::fcntl(raw, F_GETFD), -1) << "closed";
}

}  // namespace
}  // namespace bb::inputs
