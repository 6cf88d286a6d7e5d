-- Key numbers: a box at the end of each chapter with the first computed numbers of its running text,
-- each with the words just before it, so that a reader can review the chapter's orders of magnitude.
-- Runs after resolution: a `Calc` element then holds the value as the reader sees it.

local TITLE = { ["zh-Hans"] = "本章关键数字", ["zh-Hant"] = "本章關鍵數字", en = "Key numbers", ru = "Ключевые числа" }
local MAX = 5

local found = {}  -- { before = "…words", value = "8.19 B" }

-- The last few words (or, in Chinese, characters) of `text`.
local function tail(text)
  text = text:gsub("%s+$", "")
  -- Only the clause the number is in. (The marks are searched for as whole strings: a Lua pattern's
  -- [set] is a set of bytes, and would cut a Chinese character in two.)
  local cut = 0
  for _, mark in ipairs({ "。", "；", "：", "！", "？", "，", ". ", "; ", ": ", "! ", "? ", ", " }) do
    local at = text:find(mark, cut + 1, true)
    while at do
      cut = math.max(cut, at + #mark - 1)
      at = text:find(mark, at + 1, true)
    end
  end
  text = text:sub(cut + 1):gsub("^%s+", "")
  if LANG:sub(1, 2) == "zh" then
    local n = utf8.len(text) or 0
    if n <= 14 then return text end
    return "…" .. text:sub(utf8.offset(text, n - 13))
  end
  local words = {}
  for w in text:gmatch("%S+") do words[#words + 1] = w end
  if #words <= 6 then return text end
  return "… " .. table.concat(words, " ", #words - 5)
end

-- Whether a list of inlines holds a computed number.
local function has_calc(inlines)
  for _, el in ipairs(inlines) do
    if el.tag == "Calc" then return true end
  end
  return false
end

-- Only paragraphs of running text; a paragraph's functions see its numbers already formatted.
function Para(para)
  -- Most paragraphs hold no computed number: their words are not joined for nothing.
  if #found >= MAX or not has_calc(para.content) then return end
  local before = {}
  for _, el in ipairs(para.content) do
    if #found >= MAX then return end
    if el.tag == "Calc" then
      local text = table.concat(before)
      -- A number right after another says little on its own.
      if text:find("%S") then
        found[#found + 1] = { before = tail(text), value = pandoc.utils.stringify(el.content) }
      end
      before = {}
    else
      before[#before + 1] = pandoc.utils.stringify(el)
    end
  end
end

function Pandoc(doc)
  if #found == 0 then return nil end
  local items = {}
  for i, f in ipairs(found) do
    items[i] = { pandoc.Para({ pandoc.Str(f.before .. " "), pandoc.Strong(f.value) }) }
  end
  local box = bookbuild.Callout("note", {
    pandoc.Para(pandoc.Strong(TITLE[LANG] or TITLE.en)),
    pandoc.BulletList(items),
  })
  box.classes = { "key-numbers" }
  -- Before the footnotes, which the front end gathers at the end of the chapter.
  local at = #doc.blocks + 1
  for i, b in ipairs(doc.blocks) do
    if b.tag == "Note" then
      at = i
      break
    end
  end
  table.insert(doc.blocks, at, box)
  return doc
end
