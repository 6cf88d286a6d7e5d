// Running one book filter over one chapter: the pooled state and the chapter's fresh globals, the
// handlers by element name, the walk that calls them bottom-up and splices their results, and errors
// placed at filter line and manuscript.
#include <algorithm>
#include <array>
#include <fstream>
#include <lua.hpp>
#include <memory>
#include <sstream>

#include "bookfilters/book_filters.hpp"
#include "bookfilters/elements.hpp"
#include "bookfilters/filtered_store.hpp"
#include "bookfilters/pool.hpp"
#include "bookfilters_prelude.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"

namespace bb::bookfilters {

using doc::Kind;
using doc::Node;

namespace {

constexpr std::size_t kKinds = static_cast<std::size_t>(Kind::CalcNumber) + 1;

// One filter table's functions, as registry references, by node kind.
struct Handlers {
  std::array<int, kKinds> by_kind{};
  int pandoc = LUA_NOREF;
  bool any = false;
};

class Runner;

// What a protected call works on. It lives on the C++ side (its vectors own memory), never on the
// stack of the function a Lua error can unwind.
struct Call {
  Runner* runner = nullptr;
  int function = LUA_NOREF;
  const Node* node = nullptr;
  std::vector<Node> result;
  bool replaced = false;
  Stubs stubs;  // a whole-document hook's blocks
};

// Adds where the Lua code was to a message that does not say it (an error raised by a library
// function called from the filter).
int message_handler(lua_State* L) {
  const char* msg = lua_tostring(L, 1);
  if (!msg) msg = luaL_tolstring(L, 1, nullptr);
  const std::string where = lua_place(L);
  if (!where.empty() && std::string_view(msg).find(where) == std::string_view::npos)
    lua_pushfstring(L, "%s: %s", where.c_str(), msg);
  else
    lua_pushstring(L, msg);
  return 1;
}

class Runner {
 public:
  Runner(const Program& program, const Place& place, const Lookups& lookups, Diagnostics& diags,
         Pooled& pooled)
      : program_(program),
        place_(place),
        lookups_(lookups),
        diags_(diags),
        pooled_(pooled),
        sandbox_(*pooled.sandbox) {
    sandbox_.start_chapter();
    pooled.pushing.root = place.book_root;
  }
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Loads the prelude, the globals and the filter; false (reported) when any of them fails.
  bool start(const Node& root);
  void run(Node& root);

  const Lookups& lookups() const { return lookups_; }
  const Program& program() const { return program_; }
  Pooled& pooled() { return pooled_; }
  // This chapter's global table: made by `setup`, pushed by `push_environment`.
  void keep_environment(lua_State* L) { environment_ = luaL_ref(L, LUA_REGISTRYINDEX); }
  void push_environment(lua_State* L) const { lua_rawgeti(L, LUA_REGISTRYINDEX, environment_); }
  void set_globals_in(lua_State* L, int env);
  void collect_handlers(lua_State* L, int list);
  std::string printed;  // what the filter printed, reported as notes
  // What the library functions hand to Lua, kept here rather than on a stack a Lua error unwinds.
  std::optional<LabelInfo> scratch_label;
  std::optional<CalcValue> scratch_value;
  std::string scratch_error;
  std::string chunk_name;  // "@filters/x.lua"

 private:
  bool protect(lua_CFunction f, void* data, const Node& at);
  void report(int status, const Node& at);
  int defined_at(int function);
  bool call(int function, Node& node, std::vector<Node>& out);
  void walk_list(const Handlers& h, std::vector<Node>& list);
  void walk_children(const Handlers& h, Node& n);

  const Program& program_;
  const Place& place_;
  const Lookups& lookups_;
  Diagnostics& diags_;
  Pooled& pooled_;
  Sandbox& sandbox_;
  int environment_ = LUA_NOREF;
  std::vector<Handlers> tables_;
  bool failed_ = false;
  bool loading_ = false;
  Call call_;
  // Nodes replaced during the run, kept until it ends: an element the filter kept may still stand for
  // their contents (Pushing).
  std::vector<Node> retired_;
};

int call_element(lua_State* L) {
  auto* c = static_cast<Call*>(lua_touserdata(L, 1));
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->function);
  if (c->node->kind == Kind::Document) {  // the whole-document hook: Pandoc's `doc.blocks`
    c->stubs = {&c->node->children, &c->runner->pooled().pushing};
    lua_createtable(L, 0, 2);
    lua_pushliteral(L, "Pandoc");
    lua_setfield(L, -2, "tag");
    push_stubs(L, c->stubs);
    lua_setfield(L, -2, "blocks");
    lua_call(L, 1, 1);
    c->replaced = lua_istable(L, -1);
    if (c->replaced) {
      lua_getfield(L, -1, "blocks");
      read_blocks(L, -1, c->node->loc, c->runner->pooled().pushing, c->result, &c->node->children);
    }
    return 0;
  }
  Pushing& pushing = c->runner->pooled().pushing;
  push_element(L, *c->node, pushing);
  lua_call(L, 1, 1);
  c->replaced = read_result(L, -1, c->node->kind, c->node->loc, pushing, c->result);
  return 0;
}

// The line `function` (a registry reference) was defined at: asked only when a diagnostic needs it,
// as lua_getinfo on every call cost a few percent of a filter pass.
int Runner::defined_at(int function) {
  lua_State* L = sandbox_.state();
  lua_rawgeti(L, LUA_REGISTRYINDEX, function);
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  lua_Debug ar;  // lua_getinfo with '>' pops the function
  return lua_getinfo(L, ">S", &ar) ? ar.linedefined : 0;
}

void Runner::report(int status, const Node& at) {
  std::string message;
  lua_State* L = sandbox_.state();
  if (sandbox_.exhausted()) {  // whatever the Lua code made of the budget's error (pcall, a handler)
    const std::string& at = sandbox_.exhausted_at();
    message = (at.empty() ? program_.entry.name + ":" + std::to_string(defined_at(call_.function)) : at) +
              ": " + sandbox_.budget_message();
  } else if (status == LUA_ERRMEM || sandbox_.out_of_memory()) {
    message = program_.entry.name +
              (sandbox_.refused_at().empty()
                   ? ""
                   : ":" + sandbox_.refused_at().substr(sandbox_.refused_at().rfind(':') + 1)) +
              ": the filter went over its memory ceiling of " +
              std::to_string(sandbox_.limits().memory >> 20) + " MiB";
  } else {
    const char* msg = lua_tostring(L, -1);
    message = msg ? msg : "error";
    // A malformed result is found after the function returned: name the function's line instead.
    if (message.rfind(program_.entry.name + ":", 0) != 0)
      message = program_.entry.name + ":" + std::to_string(defined_at(call_.function)) + ": the " +
                element_name(at.kind) + " function returned a value the tree cannot hold: " + message;
  }
  lua_settop(L, 0);
  sandbox_.clear_error();
  failed_ = true;
  diags_.error(at.loc, "book filter: " + message +
                           (loading_ ? std::string(" (while loading the filter for this chapter)")
                                     : " (while filtering this " + std::string(element_name(at.kind)) + ")"));
}

bool Runner::protect(lua_CFunction f, void* data, const Node& at) {
  lua_State* L = sandbox_.state();
  lua_settop(L, 0);
  lua_pushcfunction(L, message_handler);
  lua_pushcfunction(L, f);
  lua_pushlightuserdata(L, data);
  const int status = lua_pcall(L, 1, 0, 1);
  if (!printed.empty()) {
    diags_.note(at.loc, "book filter " + program_.entry.name + " printed: " + printed);
    printed.clear();
  }
  if (status != LUA_OK || sandbox_.exhausted()) {
    report(status, at);
    return false;
  }
  lua_settop(L, 0);
  return true;
}

bool Runner::call(int function, Node& node, std::vector<Node>& out) {
  call_.runner = this;
  call_.function = function;
  call_.node = &node;
  call_.result.clear();
  call_.replaced = false;
  if (!protect(call_element, &call_, node) || !call_.replaced) return false;
  if (node.kind == Kind::Document) settle_stubs(call_.result, node.children);
  out = std::move(call_.result);
  return true;
}

void Runner::walk_children(const Handlers& h, Node& n) {
  if (auto* rare = n.rare_if()) walk_list(h, rare->caption);
  walk_list(h, n.children);
}

// Bottom-up, as Pandoc's walk: a function sees its element's contents already filtered.
void Runner::walk_list(const Handlers& h, std::vector<Node>& list) {
  std::vector<Node> spliced;
  bool changed = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Node& n = list[i];
    if (!failed_) walk_children(h, n);
    const int function = h.by_kind[static_cast<std::size_t>(n.kind)];
    std::vector<Node> out;
    const bool replaced = function != LUA_NOREF && !failed_ && call(function, n, out);
    if (replaced && !changed) {
      spliced.reserve(list.size() + out.size());
      for (std::size_t j = 0; j < i; ++j) spliced.push_back(std::move(list[j]));
      changed = true;
    }
    if (!changed) continue;
    if (replaced) {
      for (auto& o : out) spliced.push_back(std::move(o));
      retired_.push_back(std::move(n));
    } else {
      spliced.push_back(std::move(n));
    }
  }
  if (changed) list = std::move(spliced);
}

// bookbuild.label(name): the label's target in this edition, or nil.
int lua_label(lua_State* L) {
  auto* runner = static_cast<Runner*>(lua_touserdata(L, lua_upvalueindex(1)));
  std::size_t len = 0;
  const char* name = luaL_checklstring(L, 1, &len);
  if (!runner->lookups().label) return 0;
  // Kept by the runner, not on this stack: pushing it can fail, and a Lua error unwinds with longjmp.
  std::optional<LabelInfo>& found = runner->scratch_label;
  found = runner->lookups().label(std::string(name, len));
  if (!found) return 0;
  const LabelInfo& info = *found;
  lua_createtable(L, 0, 5);
  for (const auto& [key, value] : {std::pair<const char*, const std::string*>{"kind", &info.kind},
                                   {"chapter", &info.chapter},
                                   {"identifier", &info.identifier},
                                   {"number", &info.number},
                                   {"title", &info.title}}) {
    lua_pushlstring(L, value->data(), value->size());
    lua_setfield(L, -2, key);
  }
  return 1;
}

// bookbuild.calc(expr): the value of a calc expression (a number), or nil and the reason.
int lua_calc(lua_State* L) {
  auto* runner = static_cast<Runner*>(lua_touserdata(L, lua_upvalueindex(1)));
  std::size_t len = 0;
  const char* expr = luaL_checklstring(L, 1, &len);
  if (!runner->lookups().calc) {
    lua_pushnil(L);
    lua_pushliteral(L, "this book has no calculations");
    return 2;
  }
  std::string& error = runner->scratch_error;
  std::optional<CalcValue>& value = runner->scratch_value;
  error.clear();
  try {
    value = runner->lookups().calc(std::string(expr, len), error);
  } catch (const std::exception& e) {
    value.reset();
    error = e.what();
  }
  if (!value) {
    lua_pushnil(L);
    lua_pushlstring(L, error.data(), error.size());
    return 2;
  }
  if (value->integer)
    lua_pushinteger(L, value->i);
  else
    lua_pushnumber(L, value->d);
  return 1;
}

// print(...): kept for debugging as in Pandoc, but as a note at the element, not on stdout.
int lua_print(lua_State* L) {
  auto* runner = static_cast<Runner*>(lua_touserdata(L, lua_upvalueindex(1)));
  const int n = lua_gettop(L);  // before the buffer, which takes a slot of the stack
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; ++i) {
    if (i > 1) luaL_addchar(&b, ' ');
    luaL_tolstring(L, i, nullptr);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  std::size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  if (runner->printed.size() < 4096) runner->printed.append(text, std::min<std::size_t>(len, 4096));
  return 0;
}

void set_string(lua_State* L, const char* key, const std::string& value) {
  lua_pushlstring(L, value.data(), value.size());
  lua_setfield(L, -2, key);
}

// Calls the chunk on top of the stack (a compiled file: its one upvalue is _ENV) in `env`.
void call_in(lua_State* L, int env, int results) {
  lua_pushvalue(L, env);
  lua_setupvalue(L, -2, 1);
  lua_call(L, 0, results);
}

int setup(lua_State* L) {
  auto* c = static_cast<Call*>(lua_touserdata(L, 1));
  Pooled& pooled = c->runner->pooled();
  if (pooled.prelude == LUA_NOREF) {
    if (luaL_loadbufferx(L, kPrelude, sizeof kPrelude - 1, "=prelude", "t") != LUA_OK) lua_error(L);
    pooled.prelude = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  if (pooled.text == LUA_NOREF) {
    install_lazy(L, pooled.pushing);
    pooled.text = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  if (pooled.made == LUA_NOREF) {
    install_made(L, pooled.pushing);
    pooled.made = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  Sandbox::new_environment(L);
  const int env = lua_gettop(L);
  lua_pushvalue(L, env);
  c->runner->keep_environment(L);
  // For the prelude only: it keeps the function and removes the global.
  lua_rawgeti(L, LUA_REGISTRYINDEX, pooled.text);
  lua_setfield(L, env, "__bookbuild_text");
  lua_rawgeti(L, LUA_REGISTRYINDEX, pooled.made);
  lua_setfield(L, env, "__bookbuild_made");
  lua_rawgeti(L, LUA_REGISTRYINDEX, pooled.prelude);
  call_in(L, env, 0);
  // math.random's state belongs to the kept Lua state, not to the chapter's globals: seeded again, so
  // that a chapter's result does not depend on which chapters this thread filtered before it (and a
  // stored result is the one any build would make).
  lua_getfield(L, env, "math");
  lua_getfield(L, -1, "randomseed");
  lua_pushinteger(L, 0);
  lua_call(L, 1, 0);
  lua_pop(L, 1);
  c->runner->set_globals_in(L, env);
  return 0;
}

}  // namespace

Runner::~Runner() {
  end_run(pooled_.pushing);
  lua_State* L = sandbox_.state();
  luaL_unref(L, LUA_REGISTRYINDEX, environment_);
  for (const Handlers& h : tables_) {
    for (int ref : h.by_kind) luaL_unref(L, LUA_REGISTRYINDEX, ref);
    luaL_unref(L, LUA_REGISTRYINDEX, h.pandoc);
  }
}

void Runner::set_globals_in(lua_State* L, int env) {
  const book::Edition& e = *place_.edition;
  const book::Chapter& ch = *place_.chapter;
  lua_pushlstring(L, place_.format.data(), place_.format.size());
  lua_setfield(L, env, "FORMAT");
  lua_pushlstring(L, e.id.data(), e.id.size());
  lua_setfield(L, env, "EDITION");
  lua_pushlstring(L, e.lang.data(), e.lang.size());
  lua_setfield(L, env, "LANG");
  lua_pushstring(L, place_.stage == book::FilterEntry::Stage::Parsed ? "parsed" : "resolved");
  lua_setfield(L, env, "STAGE");
  lua_createtable(L, 0, 4);
  set_string(L, "key", ch.key);
  lua_pushinteger(L, ch.number);
  lua_setfield(L, -2, "number");
  set_string(L, "title", ch.title);
  set_string(L, "path", ch.path.lexically_relative(place_.book_root).generic_string());
  lua_setfield(L, env, "CHAPTER");
  lua_getfield(L, env, "bookbuild");
  const luaL_Reg functions[] = {{"label", lua_label}, {"calc", lua_calc}};
  for (const auto& f : functions) {
    lua_pushlightuserdata(L, this);
    lua_pushcclosure(L, f.func, 1);
    lua_setfield(L, -2, f.name);
  }
  lua_pop(L, 1);
  lua_pushlightuserdata(L, this);
  lua_pushcclosure(L, lua_print, 1);
  lua_setfield(L, env, "print");
}

namespace {

// Runs the filter's chunk and finds its functions: in the table it returns, in each table of a list
// it returns (filters run one after the other, as in Pandoc), or among its globals.
int load_filter(lua_State* L) {
  auto* c = static_cast<Call*>(lua_touserdata(L, 1));
  const Program& p = c->runner->program();
  Pooled& pooled = c->runner->pooled();
  if (pooled.chunk == LUA_NOREF) {
    c->runner->chunk_name = "@" + p.entry.name;
    const int status = luaL_loadbufferx(L, p.code.data(), p.code.size(), c->runner->chunk_name.c_str(), "t");
    if (status != LUA_OK) lua_error(L);  // compiled again for the next chapter, to report it there too
    pooled.chunk = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  c->runner->push_environment(L);
  const int env = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, pooled.chunk);
  call_in(L, env, 1);
  lua_newtable(L);  // the list of filter tables
  if (lua_istable(L, -2)) {
    lua_rawgeti(L, -2, 1);
    const bool list = lua_istable(L, -1);
    lua_pop(L, 1);
    if (list) {
      for (lua_Integer i = 1; lua_rawgeti(L, -2, i) == LUA_TTABLE; ++i) lua_rawseti(L, -2, i);
      lua_pop(L, 1);
    } else {
      lua_pushvalue(L, -2);
      lua_rawseti(L, -2, 1);
    }
  } else {
    lua_pushvalue(L, env);
    lua_rawseti(L, -2, 1);
  }
  c->runner->collect_handlers(L, lua_gettop(L));
  return 0;
}

}  // namespace

void Runner::collect_handlers(lua_State* L, int list) {
  for (lua_Integer t = 1; lua_rawgeti(L, list, t) == LUA_TTABLE; ++t) {
    Handlers h;
    h.by_kind.fill(LUA_NOREF);
    for (std::size_t k = 0; k < kKinds; ++k) {
      const Kind kind = static_cast<Kind>(k);
      if (kind == Kind::Document) continue;
      const char* generic = Node(kind).is_block() ? "Block" : "Inline";
      for (const char* name : {element_name(kind), generic}) {
        if (lua_getfield(L, -1, name) == LUA_TFUNCTION) {
          h.by_kind[k] = luaL_ref(L, LUA_REGISTRYINDEX);
          h.any = true;
          break;
        }
        lua_pop(L, 1);
      }
    }
    if (lua_getfield(L, -1, "Pandoc") == LUA_TFUNCTION) {
      h.pandoc = luaL_ref(L, LUA_REGISTRYINDEX);
      h.any = true;
    } else {
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (h.any) tables_.push_back(h);
  }
  lua_pop(L, 1);
}

bool Runner::start(const Node& root) {
  call_.runner = this;
  loading_ = true;
  const bool ok = protect(setup, &call_, root) && protect(load_filter, &call_, root);
  loading_ = false;
  // Contents are left for later only when one walk runs: a second walk may move the nodes an element
  // kept from the first stands for.
  pooled_.pushing.lazy = tables_.size() == 1;
  return ok;
}

void Runner::run(Node& root) {
  for (const Handlers& h : tables_) {
    walk_list(h, root.children);
    if (failed_) return;
    std::vector<Node> blocks;
    if (h.pandoc != LUA_NOREF && call(h.pandoc, root, blocks)) {
      for (Node& b : root.children) retired_.push_back(std::move(b));
      root.children = std::move(blocks);
    }
    if (failed_) return;
  }
}

std::vector<Program> load_programs(const book::Config& config, Diagnostics& diags) {
  std::vector<Program> programs;
  for (const auto& entry : config.filters) {
    inputs::note_file(entry.path);
    // A filter is a program of some pages: 1 MiB is far more than any needs.
    constexpr std::size_t kMaxFilterBytes = std::size_t{1} << 20;
    auto read = inputs::read_bounded(entry.path, kMaxFilterBytes);
    if (!read.ok()) {
      diags.error(entry.loc,
                  "cannot read filter `" + entry.name + "`: " + inputs::read_problem(read, kMaxFilterBytes));
      continue;
    }
    programs.push_back({entry, std::move(read.bytes)});
  }
  return programs;
}

namespace {

bool applies(const book::FilterEntry& f, const Place& place) {
  auto has = [](const std::vector<std::string>& list, const std::string& x) {
    return list.empty() || std::find(list.begin(), list.end(), x) != list.end();
  };
  return f.stage == place.stage && has(f.formats, place.format) && has(f.editions, place.edition->id);
}

// Runs `due` in order over the chapter's tree.
void run_due(const std::vector<const Program*>& due, book::Chapter& chapter, const Place& place,
             const Lookups& lookups, Diagnostics& diags, const Limits& limits) {
  for (const Program* p : due) {
    Lease lease(*p, limits);  // outlives the runner, which still uses the state as it ends
    Runner runner(*p, place, lookups, diags, *lease.pooled);
    if (runner.start(chapter.root)) runner.run(chapter.root);
  }
}

}  // namespace

void run_filters(const std::vector<Program>& programs, book::Chapter& chapter, const Place& place,
                 const Lookups& lookups, Diagnostics& diags, const Limits& limits) {
  std::vector<const Program*> due;
  for (const auto& p : programs)
    if (applies(p.entry, place)) due.push_back(&p);
  if (due.empty()) return;
  const std::optional<StoreKey> key = store_key(due, chapter, place, lookups, limits);
  if (key && load_filtered(*key, lookups, chapter.root)) {
    count_run(true);
    return;
  }
  count_run(false);
  if (!key) {
    run_due(due, chapter, place, lookups, diags, limits);
    return;
  }
  const InputBlocks input = input_blocks(chapter.root);
  // The questions the filters ask are kept with their result, which is kept only when the run said
  // nothing: a result with errors is not a result, and a note a filter printed would not be printed
  // again by a build that reuses it.
  Recorder recorder(lookups);
  Diagnostics said;
  run_due(due, chapter, place, recorder.lookups(), said, limits);
  std::vector<Diagnostic> all = said.all();
  if (all.empty()) store_filtered(*key, input, chapter.root, recorder.questions());
  for (auto& d : all) diags.add(std::move(d));
}

}  // namespace bb::bookfilters
