-- Compares the sandbox's bounded pattern functions (`string`) with the standard library's (`standard`)
-- on fixed cases and on random patterns and subjects: every result, every capture and every error
-- message must be the same. Returns the number of comparisons and the first differences found.
local tokens = {
  "a", "b", "x", ".", "%a", "%d", "%s", "%w", "%p", "%A", "%S", "%x", "%u", "%l", "%c", "%g", "%z",
  "[ab]", "[^a]", "[a-c]", "[%d_]", "[]]", "[^]a]", "[a-]", "%b()", "%bab", "%f[%a]", "%f[%A]", "%f[%z]",
  "(", ")", "()", "%1", "%2", "%0", "^", "$", "*", "+", "-", "?", "%%", "%.", "[", "%", "%b", "%f", "%f[",
  "a*", "a+", "a-", "a?", ".-", ".*", "(a)", "(.-)", "(%w+)", "%1",
}
local letters = { "a", "b", "a", "b", "(", ")", " ", ".", "1", "_", "]", "x", "A", "\0", "%", "\n" }

local seed = 12345
local function random(n)  -- a small LCG: the same cases on every run, whatever math.random does
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

local function show(ok, ...)
  local parts = { tostring(ok) }
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    parts[#parts + 1] = type(v) == "string" and string.format("%q", v) or tostring(v)
  end
  return table.concat(parts, " ")
end

local function collect(lib, s, p, init)
  local out = {}
  local ok, err = pcall(function()
    for a, b, c in lib.gmatch(s, p, init) do
      out[#out + 1] = show(true, a, b, c)
      if #out > 50 then break end
    end
  end)
  return (ok and "" or ("error " .. err)) .. table.concat(out, ";")
end

local replacements = {
  "<%0>", "%1-%1", "%%", "[%2]", "x%", "%a", "",
  function(a, b) return b or a end,
  function() return false end,
  { a = "A", b = 1, ["("] = true },
}

local count, differences = 0, {}
local function compare(what, mine, theirs)
  count = count + 1
  if mine ~= theirs and #differences < 10 then
    differences[#differences + 1] = what .. "\n  bounded:  " .. mine .. "\n  standard: " .. theirs
  end
end

local function check(s, p)
  local inits = { nil, 1, 2, -1, -3, 0, #s, #s + 1, #s + 2 }
  for k = 1, 3 do
    local init = inits[random(#inits)]
    local what = string.format("%q, %q, %s", s, p, tostring(init))
    compare("find(" .. what .. ")", show(pcall(string.find, s, p, init)), show(pcall(standard.find, s, p, init)))
    compare("find plain(" .. what .. ")", show(pcall(string.find, s, p, init, true)),
            show(pcall(standard.find, s, p, init, true)))
    compare("match(" .. what .. ")", show(pcall(string.match, s, p, init)), show(pcall(standard.match, s, p, init)))
    compare("gmatch(" .. what .. ")", collect(string, s, p, init), collect(standard, s, p, init))
  end
  local r = replacements[random(#replacements)]
  local n = ({ nil, 0, 1, 2 })[random(4)]
  local what = string.format("gsub(%q, %q, %s, %s)", s, p, tostring(r), tostring(n))
  compare(what, show(pcall(string.gsub, s, p, r, n)), show(pcall(standard.gsub, s, p, r, n)))
end

-- Fixed cases: every token alone and after a letter, over subjects that exercise it.
local subjects = { "", "a", "ab", "aab(b)a", "  x1_y ]", "(a(b)c)", "A.b%c", "a\0b", "THE (quick) fox" }
for _, t in ipairs(tokens) do
  for _, s in ipairs(subjects) do
    check(s, t)
    check(s, "a" .. t)
    check(s, t .. "$")
  end
end
-- Random ones.
for _ = 1, 6000 do
  local p, s = {}, {}
  for _ = 1, random(6) do p[#p + 1] = tokens[random(#tokens)] end
  for _ = 1, random(12) - 1 do s[#s + 1] = letters[random(#letters)] end
  check(table.concat(s), table.concat(p))
end
return count, table.concat(differences, "\n")
