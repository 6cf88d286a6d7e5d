-- Glossary: the first use of a key term in a chapter links to the section that defines it, with a
-- one-line definition as the link's title (a tooltip on the site). Runs after resolution, so the
-- section's number and place come from the book's label table (docs/filters.md teaches with this file).

-- term in each language → the label of the section that defines it, and the definition.
local TERMS = {
  {
    label = "sec:models-kv",
    words = { ["zh-Hans"] = "KV 缓存", ["zh-Hant"] = "KV 快取", en = "KV cache", ru = "KV-кэш" },
    define = {
      ["zh-Hans"] = "每层为已处理的 token 保存的键和值，避免重复计算",
      ["zh-Hant"] = "每層為已處理的 token 保存的鍵和值，避免重複計算",
      en = "the keys and values each layer keeps for the tokens already processed",
      ru = "ключи и значения, которые каждый слой хранит для уже обработанных токенов",
    },
  },
  {
    label = "sec:overview-prefill",
    words = { ["zh-Hans"] = "预填充", ["zh-Hant"] = "預填充", en = "prefill", ru = "префилл" },
    define = {
      ["zh-Hans"] = "一次处理整段提示词、写出它的 KV 缓存的阶段",
      ["zh-Hant"] = "一次處理整段提示詞、寫出它的 KV 快取的階段",
      en = "the phase that processes the whole prompt at once and writes its KV cache",
      ru = "фаза, обрабатывающая весь запрос сразу и записывающая его KV-кэш",
    },
  },
  {
    label = "sec:accelerators-roofline",
    words = { ["zh-Hans"] = "屋顶线", ["zh-Hant"] = "屋頂線", en = "roofline" },
    define = {
      ["zh-Hans"] = "算力与带宽两条上限围成的性能模型",
      ["zh-Hant"] = "算力與頻寬兩條上限圍成的效能模型",
      en = "the performance model bounded by peak compute and memory bandwidth",
    },
  },
}

local seen = {}  -- terms already linked in this chapter (each chapter runs with fresh globals)

-- The term's link: a resolved link to the defining section, as bookbuild's own resolver makes them.
local function term_link(text, term, target)
  local link = pandoc.Link(text, "#" .. target.identifier, term.define[LANG] or "")
  link.classes = { "glossary" }
  link.attributes = { dest = "chapter", chapter = target.chapter, target = target.identifier }
  return link
end

-- Where `word` first stands as a whole word in `text` (not "prefill" in "prefilling"). Chinese has no
-- spaces between words: any occurrence is one.
local function find_word(text, word)
  local from, to = text:find(word, 1, true)
  while from and LANG:sub(1, 2) ~= "zh" do
    local before, after = text:sub(from - 1, from - 1), text:sub(to + 1, to + 1)
    if not before:find("[%w\128-\255]") and not after:find("[%w\128-\255]") then break end
    from, to = text:find(word, to + 1, true)
  end
  return from, to
end

-- Splits a Str at the first use of a term not yet linked: { before, link, after }, or nil.
local function link_first_use(str)
  for _, term in ipairs(TERMS) do
    local word = term.words[LANG]
    local from, to
    if word and not seen[term.label] then from, to = find_word(str.text, word) end
    local target = from and bookbuild.label(term.label)
    -- The defining section itself needs no link to itself.
    if target and target.chapter ~= CHAPTER.key then
      seen[term.label] = true
      return {
        pandoc.Str(str.text:sub(1, from - 1)),
        term_link(str.text:sub(from, to), term, target),
        pandoc.Str(str.text:sub(to + 1)),
      }
    end
  end
end

-- Whether `text` holds a term not yet linked (as a string, whole word or not: a first sieve).
local function any_term(text)
  for _, term in ipairs(TERMS) do
    local word = term.words[LANG]
    if word and not seen[term.label] and text:find(word, 1, true) then return true end
  end
  return false
end

-- Only in running text: not in headings, links, captions or tables.
function Para(para)
  -- The paragraph's plain text is made without reading its inlines; most paragraphs hold no term, and
  -- their inlines are then never read (docs/filters.md, "Cost and caching").
  if not any_term(pandoc.utils.stringify(para)) then return end
  local content  -- the new inlines, made only once a term is found: most paragraphs have none
  for i, el in ipairs(para.content) do
    local parts = el.tag == "Str" and link_first_use(el)
    if parts then
      content = content or table.move(para.content, 1, i - 1, 1, {})
      for _, p in ipairs(parts) do
        if p.tag ~= "Str" or p.text ~= "" then content[#content + 1] = p end
      end
    elseif content then
      content[#content + 1] = el
    end
  end
  if content then
    para.content = content
    return para
  end
end
