-- Elements kept past their call: the headers are kept as they come and read only in the Pandoc hook,
-- after the paragraphs around them were replaced (the nodes they stand for have moved by then). One
-- header's inlines are read; another is given back unread, and keeps its inlines all the same.
local headers = {}

function Header(h)
  headers[#headers + 1] = h
end

function Para(p)
  -- Replaced without reading its inlines: the new paragraph holds them as they were.
  if pandoc.utils.stringify(p):find("move", 1, true) then
    return { pandoc.Para(pandoc.Str("Moved:")), p }
  end
end

function Pandoc(doc)
  local titles = {}
  for i, h in ipairs(headers) do
    titles[i] = { pandoc.Plain(pandoc.Str(h.level .. " " .. pandoc.utils.stringify(h.content))) }
  end
  doc.blocks[#doc.blocks + 1] = pandoc.BulletList(titles)
  doc.blocks[#doc.blocks + 1] = headers[3]
  return doc
end
