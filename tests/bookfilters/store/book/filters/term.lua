-- The first "KV cache" of a chapter links to the section labelled sec:kv, with that section's number
-- and title as the link's title (the glossary's rule, cut down). Chapters without the term ask nothing.
local linked = false

function Str(s)
  if linked then return nil end
  local from, to = s.text:find("KV cache", 1, true)
  if not from then return nil end
  local target = bookbuild.label("sec:kv")
  if not target or target.chapter == CHAPTER.key then return nil end
  linked = true
  local link = pandoc.Link(s.text:sub(from, to), "#" .. target.identifier, target.number .. " " .. target.title)
  link.classes = { "glossary" }
  link.attributes = { dest = "chapter", chapter = target.chapter, target = target.identifier }
  return { pandoc.Str(s.text:sub(1, from - 1)), link, pandoc.Str(s.text:sub(to + 1)) }
end
