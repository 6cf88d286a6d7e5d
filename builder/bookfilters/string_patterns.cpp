// Lua patterns with a step count (string_patterns.hpp): a matcher written for the sandbox after the
// pattern rules of the Lua 5.4 manual (§6.4.1), its steps charged to the filter's instruction budget.
#include "bookfilters/string_patterns.hpp"

#include <cctype>
#include <cstddef>
#include <cstring>
#include <lua.hpp>

#include "bookfilters/sandbox.hpp"

namespace bb::bookfilters {

namespace {

constexpr char kEsc = '%';
constexpr int kMaxDepth = 200;    // nested calls of `match`, as the standard library's MAXCCALLS
constexpr int kMaxCaptures = 32;  // as the standard library (LUA_MAXCAPTURES)
constexpr std::ptrdiff_t kUnfinished = -1;
constexpr std::ptrdiff_t kPosition = -2;
// Steps are charged to the budget in batches: often enough to stop within microseconds.
constexpr std::uint64_t kChargeEvery = 4096;

unsigned char u(char c) {
  return static_cast<unsigned char>(c);
}

// One search: the subject [src, src_end) and the pattern [p, p_end). Lua strings end in a NUL byte
// past their length, which the matcher may read at `src_end` and `p_end`, as the standard one does.
struct Matcher {
  lua_State* L = nullptr;
  const char* src = nullptr;
  const char* src_end = nullptr;
  const char* p_end = nullptr;
  int level = 0;  // captures opened so far
  int depth = kMaxDepth;
  std::uint64_t steps = 0;
  struct {
    const char* init;
    std::ptrdiff_t len;
  } capture[kMaxCaptures];

  Matcher(lua_State* state, const char* s, std::size_t ls, const char* p, std::size_t lp)
      : L(state), src(s), src_end(s + ls), p_end(p + lp) {}
  // No destructor: a Lua error leaves by longjmp. Each function flushes its count before it returns.
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  void restart() {
    level = 0;
    depth = kMaxDepth;
  }
  void step(std::uint64_t n = 1) {
    steps += n;
    if (steps >= kChargeEvery) flush();
  }
  void flush() {
    const std::uint64_t n = steps;
    steps = 0;
    if (n) Sandbox::charge(L, n);
  }

  const char* match(const char* s, const char* p);

 private:
  const char* class_end(const char* p);
  bool single(const char* s, const char* p, const char* ep);
  const char* max_expand(const char* s, const char* p, const char* ep);
  const char* min_expand(const char* s, const char* p, const char* ep);
  const char* balance(const char* s, const char* p);
  const char* back_reference(const char* s, int l);
  const char* open_capture(const char* s, const char* p, std::ptrdiff_t what);
  const char* close_capture(const char* s, const char* p);
};

bool class_matches(int c, int cl) {
  bool res = false;
  switch (std::tolower(cl)) {
    case 'a': res = std::isalpha(c); break;
    case 'c': res = std::iscntrl(c); break;
    case 'd': res = std::isdigit(c); break;
    case 'g': res = std::isgraph(c); break;
    case 'l': res = std::islower(c); break;
    case 'p': res = std::ispunct(c); break;
    case 's': res = std::isspace(c); break;
    case 'u': res = std::isupper(c); break;
    case 'w': res = std::isalnum(c); break;
    case 'x': res = std::isxdigit(c); break;
    case 'z': res = c == 0; break;  // deprecated in the manual, still in Lua 5.4's library
    default: return cl == c;
  }
  return std::isupper(cl) ? !res : res;
}

// A set `[...]` from `p` (its `[`) to `ec` (its `]`).
bool set_matches(int c, const char* p, const char* ec) {
  bool found = true;
  if (p[1] == '^') {
    found = false;
    ++p;
  }
  while (++p < ec) {
    if (*p == kEsc) {
      ++p;
      if (class_matches(c, u(*p))) return found;
    } else if (p[1] == '-' && p + 2 < ec) {
      p += 2;
      if (u(p[-2]) <= c && c <= u(*p)) return found;
    } else if (u(*p) == c) {
      return found;
    }
  }
  return !found;
}

const char* Matcher::class_end(const char* p) {
  switch (*p++) {
    case kEsc:
      if (p == p_end) luaL_error(L, "malformed pattern (ends with '%%')");
      return p + 1;
    case '[':
      if (*p == '^') ++p;
      do {  // the first character of a set is never its end: `[]]` is a set of one `]`
        if (p == p_end) luaL_error(L, "malformed pattern (missing ']')");
        if (*(p++) == kEsc && p < p_end) ++p;
      } while (*p != ']');
      return p + 1;
    default: return p;
  }
}

bool Matcher::single(const char* s, const char* p, const char* ep) {
  step();
  if (s >= src_end) return false;
  const int c = u(*s);
  switch (*p) {
    case '.': return true;
    case kEsc: return class_matches(c, u(p[1]));
    case '[': return set_matches(c, p, ep - 1);
    default: return u(*p) == c;
  }
}

const char* Matcher::max_expand(const char* s, const char* p, const char* ep) {
  std::ptrdiff_t i = 0;
  while (single(s + i, p, ep)) ++i;
  for (; i >= 0; --i)
    if (const char* res = match(s + i, ep + 1)) return res;
  return nullptr;
}

const char* Matcher::min_expand(const char* s, const char* p, const char* ep) {
  for (;;) {
    if (const char* res = match(s, ep + 1)) return res;
    if (!single(s, p, ep)) return nullptr;
    ++s;
  }
}

// `%bxy` with `p` at x.
const char* Matcher::balance(const char* s, const char* p) {
  if (p >= p_end - 1) luaL_error(L, "malformed pattern (missing arguments to '%%b')");
  if (*s != *p) return nullptr;
  const char open = p[0], close = p[1];
  int count = 1;
  while (++s < src_end) {
    step();
    if (*s == close) {
      if (--count == 0) return s + 1;
    } else if (*s == open) {
      ++count;
    }
  }
  return nullptr;
}

const char* Matcher::back_reference(const char* s, int l) {
  l -= '1';
  if (l < 0 || l >= level || capture[l].len == kUnfinished)
    luaL_error(L, "invalid capture index %%%d", l + 1);
  const auto len = static_cast<std::size_t>(capture[l].len);
  step(len);
  if (static_cast<std::size_t>(src_end - s) >= len && std::memcmp(capture[l].init, s, len) == 0)
    return s + len;
  return nullptr;
}

const char* Matcher::open_capture(const char* s, const char* p, std::ptrdiff_t what) {
  if (level >= kMaxCaptures) luaL_error(L, "too many captures");
  capture[level].init = s;
  capture[level].len = what;
  ++level;
  const char* res = match(s, p);
  if (!res) --level;
  return res;
}

const char* Matcher::close_capture(const char* s, const char* p) {
  int l = level - 1;
  while (l >= 0 && capture[l].len != kUnfinished) --l;
  if (l < 0) luaL_error(L, "invalid pattern capture");
  capture[l].len = s - capture[l].init;
  const char* res = match(s, p);
  if (!res) capture[l].len = kUnfinished;
  return res;
}

// The end of the match of pattern `p` at `s`, or nullptr. Tail calls are loops (`continue`), as in
// the standard matcher, so that the depth counts only real backtracking points.
const char* Matcher::match(const char* s, const char* p) {
  step();
  if (depth-- == 0) luaL_error(L, "pattern too complex");
  while (p != p_end) {
    if (*p == '(') {
      s = p + 1 < p_end && p[1] == ')' ? open_capture(s, p + 2, kPosition)
                                       : open_capture(s, p + 1, kUnfinished);
      break;
    }
    if (*p == ')') {
      s = close_capture(s, p + 1);
      break;
    }
    if (*p == '$' && p + 1 == p_end) {
      s = s == src_end ? s : nullptr;
      break;
    }
    if (*p == kEsc && p[1] == 'b') {
      s = balance(s, p + 2);
      if (!s) break;
      p += 4;
      continue;
    }
    if (*p == kEsc && p[1] == 'f') {
      p += 2;
      if (*p != '[') luaL_error(L, "missing '[' after '%%f' in pattern");
      const char* ep = class_end(p);
      const char previous = s == src ? '\0' : s[-1];
      if (!set_matches(u(previous), p, ep - 1) && set_matches(u(*s), p, ep - 1)) {
        p = ep;
        continue;
      }
      s = nullptr;
      break;
    }
    if (*p == kEsc && std::isdigit(u(p[1]))) {
      s = back_reference(s, u(p[1]));
      if (!s) break;
      p += 2;
      continue;
    }
    const char* ep = class_end(p);  // a single character class, then maybe a suffix
    if (!single(s, p, ep)) {
      if (*ep == '*' || *ep == '?' || *ep == '-') {  // may match nothing
        p = ep + 1;
        continue;
      }
      s = nullptr;
      break;
    }
    if (*ep == '?') {
      if (const char* res = match(s + 1, ep + 1)) {
        s = res;
        break;
      }
      p = ep + 1;
      continue;
    }
    if (*ep == '+' || *ep == '*') {
      s = max_expand(*ep == '+' ? s + 1 : s, p, ep);
      break;
    }
    if (*ep == '-') {
      s = min_expand(s, p, ep);
      break;
    }
    ++s;
    p = ep;
  }
  ++depth;
  return s;
}

// The index (0-based) where a search from `position` (1-based, negative from the end) starts, past
// `length` when it starts after the end.
std::size_t start_of(lua_Integer position, std::size_t length) {
  if (position > 0) return static_cast<std::size_t>(position) - 1;
  if (position == 0 || position < -static_cast<lua_Integer>(length)) return 0;
  return length - static_cast<std::size_t>(-position);
}

bool has_specials(const char* p, std::size_t lp) {
  for (std::size_t i = 0; i < lp; ++i)
    if (std::strchr("^$*+?.([%-", p[i]) && p[i] != '\0') return true;
  return false;
}

// Capture `i` of the last match [s, e): its text or position pushed; returns the length pushed or
// kPosition. Capture 0 of a pattern without captures is the whole match.
void push_capture(Matcher& m, int i, const char* s, const char* e) {
  if (i >= m.level) {
    if (i != 0) luaL_error(m.L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(m.L, s, static_cast<std::size_t>(e - s));
    return;
  }
  const std::ptrdiff_t len = m.capture[i].len;
  if (len == kUnfinished) luaL_error(m.L, "unfinished capture");
  if (len == kPosition)
    lua_pushinteger(m.L, m.capture[i].init - m.src + 1);
  else
    lua_pushlstring(m.L, m.capture[i].init, static_cast<std::size_t>(len));
}

// Every capture (or the whole match when there is none and `s` is given); returns how many.
int push_captures(Matcher& m, const char* s, const char* e) {
  const int n = m.level == 0 && s ? 1 : m.level;
  luaL_checkstack(m.L, n, "too many captures");
  for (int i = 0; i < n; ++i) push_capture(m, i, s, e);
  return n;
}

int find_or_match(lua_State* L, bool find) {
  std::size_t ls = 0, lp = 0;
  const char* s = luaL_checklstring(L, 1, &ls);
  const char* p = luaL_checklstring(L, 2, &lp);
  const std::size_t init = start_of(luaL_optinteger(L, 3, 1), ls);
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
    // Linear time (glibc's two-way search), whatever the subject and the pattern.
    const void* at = memmem(s + init, ls - init, p, lp);
    if (!at) {
      luaL_pushfail(L);
      return 1;
    }
    const auto start = static_cast<const char*>(at) - s;
    lua_pushinteger(L, start + 1);
    lua_pushinteger(L, start + static_cast<lua_Integer>(lp));
    return 2;
  }
  const bool anchor = lp > 0 && *p == '^';
  if (anchor) {
    ++p;
    --lp;
  }
  Matcher m(L, s, ls, p, lp);
  const char* s1 = s + init;
  do {
    m.restart();
    if (const char* e = m.match(s1, p)) {
      m.flush();
      if (!find) return push_captures(m, s1, e);
      lua_pushinteger(L, s1 - s + 1);
      lua_pushinteger(L, e - s);
      return push_captures(m, nullptr, nullptr) + 2;
    }
  } while (s1++ < m.src_end && !anchor);
  m.flush();
  luaL_pushfail(L);
  return 1;
}

int bounded_find(lua_State* L) {
  return find_or_match(L, true);
}

int bounded_match(lua_State* L) {
  return find_or_match(L, false);
}

// What an iterator of gmatch keeps between calls (a full userdata, upvalue 3 of the iterator; the
// subject and the pattern are upvalues 1 and 2, which keeps them alive).
struct Iteration {
  std::size_t next;         // where the next search starts
  std::ptrdiff_t last_end;  // where the last match ended, -1 before the first
};

int gmatch_next(lua_State* L) {
  std::size_t ls = 0, lp = 0;
  const char* s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char* p = lua_tolstring(L, lua_upvalueindex(2), &lp);
  auto* it = static_cast<Iteration*>(lua_touserdata(L, lua_upvalueindex(3)));
  Matcher m(L, s, ls, p, lp);
  for (const char* from = s + it->next; from <= m.src_end; ++from) {
    m.restart();
    const char* e = m.match(from, p);
    if (e && e - s != it->last_end) {  // an empty match where the last one ended is skipped
      m.flush();
      it->next = static_cast<std::size_t>(e - s);
      it->last_end = e - s;
      return push_captures(m, from, e);
    }
  }
  m.flush();
  it->next = ls + 1;
  return 0;
}

int bounded_gmatch(lua_State* L) {
  std::size_t ls = 0;
  luaL_checklstring(L, 1, &ls);
  luaL_checkstring(L, 2);
  std::size_t init = start_of(luaL_optinteger(L, 3, 1), ls);
  if (init > ls) init = ls + 1;
  lua_settop(L, 2);
  auto* it = static_cast<Iteration*>(lua_newuserdatauv(L, sizeof(Iteration), 0));
  *it = {init, -1};
  lua_pushcclosure(L, gmatch_next, 3);
  return 1;
}

// gsub's replacement string: `%0`–`%9` and `%%`.
void add_string(Matcher& m, luaL_Buffer& b, const char* s, const char* e) {
  std::size_t l = 0;
  const char* news = lua_tolstring(m.L, 3, &l);
  m.step(l);
  const char* p = nullptr;
  while ((p = static_cast<const char*>(std::memchr(news, kEsc, l))) != nullptr) {
    luaL_addlstring(&b, news, static_cast<std::size_t>(p - news));
    ++p;
    if (*p == kEsc) {
      luaL_addchar(&b, *p);
    } else if (*p == '0') {
      luaL_addlstring(&b, s, static_cast<std::size_t>(e - s));
    } else if (std::isdigit(u(*p))) {
      push_capture(m, *p - '1', s, e);
      luaL_addvalue(&b);  // a position capture is added as its digits
    } else {
      luaL_error(m.L, "invalid use of '%c' in replacement string", kEsc);
    }
    l -= static_cast<std::size_t>(p + 1 - news);
    news = p + 1;
  }
  luaL_addlstring(&b, news, l);
}

// Adds the replacement of the match [s, e) to `b`; false when the match is kept as it was.
bool add_value(Matcher& m, luaL_Buffer& b, const char* s, const char* e, int type) {
  lua_State* L = m.L;
  if (type == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    const int n = push_captures(m, s, e);
    m.flush();  // the function's own instructions are counted by the hook
    lua_call(L, n, 1);
  } else if (type == LUA_TTABLE) {
    push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    add_string(m, b, s, e);
    return true;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(&b, s, static_cast<std::size_t>(e - s));
    return false;
  }
  if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(&b);
  return true;
}

int bounded_gsub(lua_State* L) {
  std::size_t ls = 0, lp = 0;
  const char* src = luaL_checklstring(L, 1, &ls);
  const char* p = luaL_checklstring(L, 2, &lp);
  const int type = lua_type(L, 3);
  const lua_Integer max = luaL_optinteger(L, 4, static_cast<lua_Integer>(ls) + 1);
  luaL_argexpected(L,
                   type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION || type == LUA_TTABLE,
                   3, "string/function/table");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  const bool anchor = lp > 0 && *p == '^';
  if (anchor) {
    ++p;
    --lp;
  }
  Matcher m(L, src, ls, p, lp);
  const char* last = nullptr;
  lua_Integer n = 0;
  bool changed = false;
  while (n < max) {
    m.restart();
    const char* e = m.match(src, p);
    if (e && e != last) {
      ++n;
      changed = add_value(m, b, src, e, type) || changed;
      src = last = e;
    } else if (src < m.src_end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchor) break;
  }
  m.flush();
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, src, static_cast<std::size_t>(m.src_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

}  // namespace

void install_bounded_patterns(lua_State* L, int string_table) {
  string_table = lua_absindex(L, string_table);
  const luaL_Reg functions[] = {
      {"find", bounded_find}, {"match", bounded_match}, {"gmatch", bounded_gmatch}, {"gsub", bounded_gsub}};
  for (const auto& f : functions) {
    lua_pushcfunction(L, f.func);
    lua_setfield(L, string_table, f.name);
  }
}

}  // namespace bb::bookfilters
