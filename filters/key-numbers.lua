-- Key numbers: a box at the end of each chapter with the first computed numbers of its running text,
-- each with the words just before it, so that a reader can review the chapter's orders of magnitude.
-- Runs after resolution: a `Calc` element then holds the value as the reader sees it. The box holds the
-- element itself, not its text: a copy of a computed number stays computed (`check numbers` knows where
-- it comes from), where a string typed into a `Str` would be a number typed by this filter.

local TITLE = { ["zh-Hans"] = "本章关键数字", ["zh-Hant"] = "本章關鍵數字", en = "Key numbers", ru = "Ключевые числа" }
local MAX = 5

local found = {}  -- { before = { inlines… }, value = <the Calc element> }

local zh = LANG:sub(1, 2) == "zh"
local MARKS = { "。", "；", "：", "！", "？", "，", ". ", "; ", ": ", "! ", "? ", ", " }

-- The byte just past the last clause mark in `text`, or nil. (The marks are searched for as whole
-- strings: a Lua pattern's [set] is a set of bytes, and would cut a Chinese character in two.)
local function after_last_mark(text)
  local cut
  for _, mark in ipairs(MARKS) do
    local at = text:find(mark, 1, true)
    while at do
      if not cut or at + #mark > cut then cut = at + #mark end
      at = text:find(mark, at + 1, true)
    end
  end
  return cut
end

-- How much of the budget a text takes: characters in Chinese, words elsewhere.
local function size(text)
  if zh then return utf8.len(text) or #text end
  local n = 0
  for _ in text:gmatch("%S+") do n = n + 1 end
  return n
end

-- The last `keep` characters (Chinese) or words of `text`.
local function last(text, keep)
  if zh then return text:sub(utf8.offset(text, -keep) or 1) end
  local words = {}
  for w in text:gmatch("%S+") do words[#words + 1] = w end
  -- The space before the element that follows stays.
  return table.concat(words, " ", math.max(1, #words - keep + 1)) .. (text:match("%s$") and " " or "")
end

-- The clause the number is in, shortened to its last few words (or, in Chinese, characters): the
-- inlines before it, kept as elements. Text is cut; any other element (a computed number, a span
-- marked `.typed`) is kept whole or left out, so that every number in the box keeps where it came from.
local function tail(inlines)
  local budget = zh and 14 or 6
  local out, cut = {}, false
  for i = #inlines, 1, -1 do
    local el = inlines[i]
    local plain = el.tag == "Str" or el.tag == "SoftBreak" or el.tag == "LineBreak"
    local text = plain and pandoc.utils.stringify(el) or nil
    if i == #inlines and text then text = text:gsub("%s+$", "") end
    local stop = false
    if text then
      local at = after_last_mark(text)
      if at then
        text, stop = text:sub(at):gsub("^%s+", ""), true
      end
      if size(text) > budget then
        text, cut, stop = last(text, budget), true, true
      end
      budget = budget - size(text)
      if text ~= "" then table.insert(out, 1, pandoc.Str(text)) end
    else
      local n = size(pandoc.utils.stringify(el))
      if n > budget then
        cut = true
        break
      end
      budget = budget - n
      table.insert(out, 1, el)
    end
    if stop or budget <= 0 then
      cut = cut or i > 1
      break
    end
  end
  if cut then table.insert(out, 1, pandoc.Str(zh and "…" or "… ")) end
  return out
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
  -- Most paragraphs hold no computed number: their words are not read for nothing.
  if #found >= MAX or not has_calc(para.content) then return end
  local before = {}
  for _, el in ipairs(para.content) do
    if #found >= MAX then return end
    if el.tag == "Calc" then
      -- A number right after another says little on its own.
      if pandoc.utils.stringify(before):find("%S") then
        found[#found + 1] = { before = tail(before), value = el }
      end
      before = {}
    else
      before[#before + 1] = el
    end
  end
end

function Pandoc(doc)
  if #found == 0 then return nil end
  local items = {}
  for i, f in ipairs(found) do
    local line = f.before
    line[#line + 1] = pandoc.Str(" ")
    line[#line + 1] = pandoc.Strong(f.value)
    items[i] = { pandoc.Para(line) }
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
