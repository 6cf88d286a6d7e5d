-- The bounded pattern functions give the standard library's results on ordinary work.
function Para(p)
  local s = "  The KV cache: 2 x 32 x 8192 x 128 = 67108864 bytes  "
  local out = {}
  out[#out + 1] = s:match("^%s*(.-)%s*$")
  out[#out + 1] = table.concat({ s:find("(%d+) bytes") }, ",")
  out[#out + 1] = table.concat({ s:find("x 32", 1, true) }, ",")
  local words = {}
  for w in s:gmatch("%a+") do words[#words + 1] = w end
  out[#out + 1] = table.concat(words, "/")
  out[#out + 1] = (s:gsub("(%d+)", "<%1>"))
  out[#out + 1] = (("f(a(b)c)d"):match("%b()"))
  out[#out + 1] = tostring(("THE (quick) fox"):find("%f[%a]%a+", 5))
  out[#out + 1] = (("hello world"):gsub("o", { o = "0" }))
  out[#out + 1] = (("abc"):gsub("", "-"))
  out[#out + 1] = (("x = 1, y = 2"):gsub("(%w+) = (%w+)", "%2 = %1"))
  out[#out + 1] = tostring(("aaa"):find("()a()", 2))
  return pandoc.Para({ pandoc.Str(table.concat(out, " | ")) })
end
