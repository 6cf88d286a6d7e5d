// The filtered-tree store (filtered_store.hpp): its key, the questions and their answers, the file
// format, and reading it back without trusting it.
#include "bookfilters/filtered_store.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "book/parse_store.hpp"
#include "doc/tree_codec.hpp"
#include "inputs/file_io.hpp"
#include "text/digest.hpp"

namespace bb::bookfilters {

namespace fs = std::filesystem;
using doc::codec::Decoder;
using doc::codec::PathTable;
using doc::codec::Reader;
using doc::codec::Writer;

namespace {

constexpr char kMagic[4] = {'B', 'B', 'F', 'T'};
constexpr std::uint32_t kFormat = 2;
// A stored result larger than this is not read (a chapter's tree is a few times its Markdown).
constexpr std::size_t kMaxFileBytes = std::size_t{256} << 20;

struct StoreInUse {
  std::mutex mutex;
  fs::path dir;
};

StoreInUse& store_in_use() {
  static StoreInUse s;
  return s;
}

fs::path store_dir() {
  StoreInUse& s = store_in_use();
  std::lock_guard lock(s.mutex);
  return s.dir;
}

std::atomic<std::uint64_t> ran_count{0}, reused_count{0};

// A 128-bit digest of bytes the key names but does not hold (the tree, a filter's text): two
// independent 64-bit checksums (text::checksum64), as the figure cache keys content.
void put_digest(Writer& w, std::string_view bytes) {
  w.num(text::checksum64(bytes));
  w.num(text::checksum64(bytes, 0x13198A2E03707344ULL));
}

void put_list(Writer& w, const std::vector<std::string>& list) {
  w.num(list.size());
  for (const auto& s : list) w.text(s);
}

std::string label_answer(const std::optional<LabelInfo>& found) {
  Writer w;
  w.u8(found ? 1 : 0);
  if (found)
    for (const std::string* s :
         {&found->kind, &found->chapter, &found->identifier, &found->number, &found->title})
      w.text(*s);
  return std::move(w.out);
}

std::string calc_answer(const std::optional<CalcValue>& value, std::string_view error) {
  Writer w;
  if (!value) {
    w.u8(0);
    w.text(error);
  } else if (value->integer) {
    w.u8(1);
    w.signed_num(value->i);
  } else {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value->d, sizeof bits);
    w.u8(2);
    w.num(bits);
  }
  return std::move(w.out);
}

// One file per chapter, output and stage (the header holds the rest of the key): a later build of the
// same chapter replaces it, so the store holds no more entries than the book has chapter passes.
fs::path entry_file(const fs::path& dir, const book::Chapter& chapter, const Place& place) {
  Writer w;
  w.text(chapter.path.native());
  w.text(place.format);
  w.text(place.edition->id);
  w.u8(place.stage == book::FilterEntry::Stage::Parsed ? 0 : 1);
  char name[40];
  std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(text::checksum64(w.out)));
  return dir / name;
}

}  // namespace

void use_filtered_store(const fs::path& dir) {
  StoreInUse& s = store_in_use();
  std::lock_guard lock(s.mutex);
  s.dir = dir;
}

std::string ask(const Lookups& lookups, Question::Kind kind, const std::string& subject) {
  if (kind == Question::Kind::Label)
    return label_answer(lookups.label ? lookups.label(subject) : std::nullopt);
  if (!lookups.calc) return calc_answer(std::nullopt, "");
  std::string error;
  try {
    auto value = lookups.calc(subject, error);
    return calc_answer(value, error);
  } catch (const std::exception& e) {
    return calc_answer(std::nullopt, e.what());
  }
}

Recorder::Recorder(const Lookups& inner) {
  // Absent lookups stay absent: the filter sees nil, or "no calculations", as without the recorder.
  if (inner.label)
    recording_.label = [this, &inner](const std::string& name) {
      auto found = inner.label(name);
      note(Question::Kind::Label, name, label_answer(found));
      return found;
    };
  if (inner.calc)
    recording_.calc = [this, &inner](const std::string& expr, std::string& error) {
      std::optional<CalcValue> value;
      try {
        value = inner.calc(expr, error);
      } catch (const std::exception& e) {
        note(Question::Kind::Calc, expr, calc_answer(std::nullopt, e.what()));
        throw;
      }
      note(Question::Kind::Calc, expr, calc_answer(value, error));
      return value;
    };
}

void Recorder::note(Question::Kind kind, const std::string& subject, std::string answer) {
  // The glossary asks for the same few labels at every paragraph: each question is kept once.
  for (const auto& q : questions_)
    if (q.kind == kind && q.subject == subject) return;
  questions_.push_back({kind, subject, std::move(answer)});
}

std::optional<StoreKey> store_key(const std::vector<const Program*>& due, const book::Chapter& chapter,
                                  const Place& place, const Lookups& lookups, const Limits& limits) {
  const fs::path dir = store_dir();
  const std::string& stamp = book::executable_stamp();
  if (dir.empty() || stamp.empty()) return std::nullopt;
  // The tree's bytes are only digested: one buffer per thread, grown once, not once per chapter.
  thread_local std::string buffer;
  Writer tree;
  buffer.clear();
  tree.out.swap(buffer);
  PathTable paths;
  const bool written = doc::codec::encode_node(tree, paths, chapter.root);
  paths.write(tree);
  tree.out.swap(buffer);
  if (!written) return std::nullopt;

  Writer w;
  w.out.append(kMagic, 4);
  w.num(kFormat);
  w.text(stamp);
  // The globals a filter reads: FORMAT, EDITION, LANG, STAGE, CHAPTER.
  w.text(place.format);
  w.text(place.edition->id);
  w.text(place.edition->lang);
  w.u8(place.stage == book::FilterEntry::Stage::Parsed ? 0 : 1);
  w.text(chapter.key);
  w.signed_num(chapter.number);
  w.text(chapter.title);
  w.text(chapter.path.native());
  w.text(place.book_root.native());
  // Whether the book can be asked at all (a nil lookup is no question the store could ask again).
  w.u8(static_cast<std::uint8_t>((lookups.label ? 1 : 0) | (lookups.calc ? 2 : 0)));
  w.num(limits.memory);
  w.num(limits.instructions);
  w.num(limits.cpu_ms);
  w.num(due.size());
  for (const Program* p : due) {
    w.text(p->entry.name);
    put_list(w, p->entry.formats);
    put_list(w, p->entry.editions);
    w.num(p->code.size());
    put_digest(w, p->code);
  }
  w.num(buffer.size());
  put_digest(w, buffer);
  return StoreKey{entry_file(dir, chapter, place), std::move(w.out)};
}

namespace {

// A block as bytes of its own: its path table, then the node. "" when it is too deep to be written.
std::string block_bytes(const doc::Node& block) {
  Writer node;
  PathTable paths;
  if (!doc::codec::encode_node(node, paths, block)) return {};
  Writer w;
  paths.write(w);
  w.out += node.out;
  return std::move(w.out);
}

constexpr std::uint8_t kKept = 0;  // a block of the input, by index
constexpr std::uint8_t kMade = 1;  // a block the filters made (or changed), as a node

}  // namespace

InputBlocks input_blocks(const doc::Node& root) {
  InputBlocks input;
  input.bytes.reserve(root.children.size());
  for (const auto& b : root.children) input.bytes.push_back(block_bytes(b));
  return input;
}

// The layout: header (store_key), then { u8 kind, text subject, text answer } per question, then the
// path table, the result's root without its blocks (doc::codec::encode_shell), the number of its
// blocks and for each either { kKept, index of the input block } or { kMade, node }; then the
// text::checksum64 of all the above, 8 bytes little-endian.
std::string encode_filtered(const std::string& header, const InputBlocks& input, const doc::Node& root,
                            const std::vector<Question>& questions) {
  Writer w;
  w.out = header;
  w.num(questions.size());
  for (const auto& q : questions) {
    w.u8(static_cast<std::uint8_t>(q.kind));
    w.text(q.subject);
    w.text(q.answer);
  }
  // Each input block may be named once: the result's blocks take them in turn.
  std::unordered_map<std::string_view, std::vector<std::size_t>> unused;
  for (std::size_t i = input.bytes.size(); i-- > 0;)
    if (!input.bytes[i].empty()) unused[input.bytes[i]].push_back(i);
  Writer tree;
  PathTable paths;
  if (!doc::codec::encode_shell(tree, paths, root)) return {};
  tree.num(root.children.size());
  for (const auto& b : root.children) {
    const std::string bytes = unused.empty() ? std::string() : block_bytes(b);
    auto same = bytes.empty() ? unused.end() : unused.find(bytes);
    if (same != unused.end() && !same->second.empty()) {
      tree.u8(kKept);
      tree.num(same->second.back());
      same->second.pop_back();
    } else {
      tree.u8(kMade);
      if (!doc::codec::encode_node(tree, paths, b, 1)) return {};
    }
  }
  paths.write(w);
  w.out += tree.out;
  const std::uint64_t sum = text::checksum64(w.out);
  for (int i = 0; i < 8; ++i) w.out += static_cast<char>((sum >> (8 * i)) & 0xFF);
  return std::move(w.out);
}

bool decode_filtered(std::string_view bytes, const std::string& header, const Lookups& lookups,
                     doc::Node& root) {
  if (header.empty() || bytes.size() < header.size() + 8) return false;
  std::string_view body = bytes.substr(0, bytes.size() - 8);
  std::uint64_t sum = 0;
  for (int i = 0; i < 8; ++i)
    sum |= std::uint64_t(static_cast<std::uint8_t>(bytes[body.size() + i])) << (8 * i);
  if (!body.starts_with(header) || text::checksum64(body) != sum) return false;
  Decoder d{Reader(body.substr(header.size())), {}};
  std::size_t count = 0;
  if (!d.in.count(count)) return false;
  // Asked again before the tree is read: a changed answer is the common miss, and the cheap one.
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t kind = 0;
    std::string subject;
    std::string_view answer;
    if (!d.in.u8(kind) || kind > static_cast<std::uint8_t>(Question::Kind::Calc) || !d.in.text(subject) ||
        !d.in.view(answer))
      return false;
    if (ask(lookups, static_cast<Question::Kind>(kind), subject) != answer) return false;
  }
  doc::Node result;
  if (!d.read_paths() || !d.node(result) || result.kind != doc::Kind::Document || !result.children.empty() ||
      !d.in.count(count))
    return false;
  // Read whole before `root` is touched: a damaged entry leaves it as it was.
  struct Piece {
    std::size_t kept = 0;
    doc::Node made;
  };
  constexpr std::size_t kNone = ~std::size_t{0};
  std::vector<Piece> pieces(count);
  std::vector<bool> taken(root.children.size());
  for (auto& p : pieces) {
    std::uint8_t tag = 0;
    std::uint64_t index = 0;
    if (!d.in.u8(tag)) return false;
    if (tag == kKept) {
      if (!d.in.num(index) || index >= taken.size() || taken[index]) return false;
      taken[index] = true;
      p.kept = static_cast<std::size_t>(index);
    } else if (tag != kMade || !d.node(p.made, 1)) {
      return false;
    } else {
      p.kept = kNone;
    }
  }
  if (!d.in.done()) return false;
  result.children.reserve(pieces.size());
  for (auto& p : pieces)
    result.children.push_back(p.kept == kNone ? std::move(p.made) : std::move(root.children[p.kept]));
  root = std::move(result);
  return true;
}

bool load_filtered(const StoreKey& key, const Lookups& lookups, doc::Node& root) {
  std::string bytes = inputs::read_bounded(key.file, kMaxFileBytes).bytes;
  if (bytes.empty()) return false;
  return decode_filtered(bytes, key.header, lookups, root);
}

void store_filtered(const StoreKey& key, const InputBlocks& input, const doc::Node& root,
                    const std::vector<Question>& questions) {
  std::string bytes = encode_filtered(key.header, input, root, questions);
  if (bytes.empty()) return;
  // Written aside and renamed: a concurrent build reads the old entry or the new, never half of one.
  inputs::write_atomic(key.file, bytes);
}

RunCounts run_counts() {
  return {ran_count.load(), reused_count.load()};
}

void count_run(bool reused) {
  ++(reused ? reused_count : ran_count);
}

}  // namespace bb::bookfilters
