-- Constructors and helpers every book filter sees (docs/filters.md, "Constructors"). Named as in
-- Pandoc's `pandoc` module, so that a Pandoc filter's habits carry over; `bookbuild` adds what only
-- bookbuild's tree has. Runs in the filter's own sandbox, before the filter.
-- The filter's line that made an element (bookbuild's own; not a global the filter sees): an element a
-- constructor makes is placed there, so that a number it types is reported at the filter, not at the
-- chapter it went into (docs/numbers.md, "Numbers written by filters").
local made = __bookbuild_made
__bookbuild_made = nil
local function attr(a, t)
  t._place = made()
  a = a or {}
  t.identifier = a.identifier or a[1] or ""
  t.classes = a.classes or a[2] or {}
  t.attributes = a.attributes or a[3] or {}
  return t
end
local function inlines(x)
  if type(x) == "string" then return { { tag = "Str", text = x, _place = made() } } end
  if type(x) == "table" and x.tag then return { x } end
  return x or {}
end
local function blocks(x)
  if type(x) == "table" and x.tag then return { x } end
  return x or {}
end
local function items(list)
  local out = {}
  for i, item in ipairs(list or {}) do
    out[i] = (item.tag == "ListItem") and item or { tag = "ListItem", content = blocks(item), _place = made() }
  end
  return out
end

pandoc = {}
function pandoc.Attr(identifier, classes, attributes)
  return { identifier = identifier or "", classes = classes or {}, attributes = attributes or {} }
end
function pandoc.Str(text) return { tag = "Str", text = text, _place = made() } end
function pandoc.Space() return { tag = "Str", text = " ", _place = made() } end
function pandoc.SoftBreak() return { tag = "SoftBreak", _place = made() } end
function pandoc.LineBreak() return { tag = "LineBreak", _place = made() } end
function pandoc.Emph(content) return attr(nil, { tag = "Emph", content = inlines(content) }) end
function pandoc.Strong(content) return attr(nil, { tag = "Strong", content = inlines(content) }) end
function pandoc.Strikeout(content) return attr(nil, { tag = "Strikeout", content = inlines(content) }) end
function pandoc.Subscript(content) return attr(nil, { tag = "Subscript", content = inlines(content) }) end
function pandoc.Superscript(content) return attr(nil, { tag = "Superscript", content = inlines(content) }) end
function pandoc.Code(text, a) return attr(a, { tag = "Code", text = text }) end
function pandoc.Math(mathtype, text) return attr(nil, { tag = "Math", mathtype = mathtype, text = text }) end
function pandoc.RawInline(format, text) return attr(nil, { tag = "RawInline", format = format, text = text }) end
function pandoc.Link(content, target, title, a)
  return attr(a, { tag = "Link", content = inlines(content), target = target, title = title or "" })
end
function pandoc.Image(caption, src, title, a)
  return attr(a, { tag = "Image", caption = inlines(caption), src = src, title = title or "" })
end
function pandoc.Span(content, a) return attr(a, { tag = "Span", content = inlines(content) }) end
function pandoc.Para(content) return attr(nil, { tag = "Para", content = inlines(content) }) end
pandoc.Plain = pandoc.Para
function pandoc.Header(level, content, a)
  return attr(a, { tag = "Header", level = level, content = inlines(content) })
end
function pandoc.BlockQuote(content) return attr(nil, { tag = "BlockQuote", content = blocks(content) }) end
function pandoc.CodeBlock(text, a)
  local t = attr(a, { tag = "CodeBlock", text = text, info = "" })
  if #t.classes > 0 then t.info = table.remove(t.classes, 1) end
  return t
end
function pandoc.RawBlock(format, text) return attr(nil, { tag = "RawBlock", format = format, text = text }) end
function pandoc.HorizontalRule() return attr(nil, { tag = "HorizontalRule" }) end
function pandoc.BulletList(list) return attr(nil, { tag = "BulletList", tight = true, content = items(list) }) end
function pandoc.OrderedList(list, start)
  return attr(nil, { tag = "OrderedList", tight = true, start = start or 1, content = items(list) })
end

-- The plain text of an element whose contents the filter has not read, made from the tree without
-- pushing them (bookbuild's own; not a global the filter sees).
local native_text = __bookbuild_text
__bookbuild_text = nil

pandoc.utils = {}
-- The plain text of an element or a list of them, as Pandoc's `pandoc.utils.stringify`.
function pandoc.utils.stringify(x)
  if type(x) == "string" then return x end
  if type(x) ~= "table" then return "" end
  local native = native_text(x)
  if native then return native end
  -- A lone text element, the common case (a paragraph's parts one by one), without a closure or a table.
  local tag = x.tag
  if tag and x.content == nil then
    if tag == "SoftBreak" or tag == "LineBreak" then return " " end
    if tag == "Str" or tag == "Code" or tag == "Math" then return x.text or "" end
    return ""
  end
  local parts = {}
  local function add(e)
    local native = native_text(e)
    if native then
      parts[#parts + 1] = native
      return
    end
    if e.tag == "SoftBreak" or e.tag == "LineBreak" then parts[#parts + 1] = " "
    elseif e.tag == "Str" or e.tag == "Code" or e.tag == "Math" then parts[#parts + 1] = e.text or "" end
    for _, c in ipairs(e.content or {}) do add(c) end
  end
  if x.tag then add(x) else for _, e in ipairs(x) do add(e) end end
  return table.concat(parts)
end

bookbuild = bookbuild or {}
for name, f in pairs(pandoc) do bookbuild[name] = f end
bookbuild.stringify = pandoc.utils.stringify
-- A callout box (bookbuild's kinds: "note", "think", "example", "experiment").
function bookbuild.Callout(kind, content, a)
  local t = attr(a, { tag = "Callout", content = blocks(content) })
  t.attributes.kind = kind
  return t
end
