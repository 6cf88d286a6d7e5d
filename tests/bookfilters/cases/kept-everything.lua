-- Keeps every element of every kind and reads, changes and gives them back in the Pandoc hook, after
-- other elements were replaced around them.
local kept = {}
function Inline(el) kept[#kept + 1] = el if el.tag == "Str" then return { el, pandoc.Str("!") } end end
function Block(el) kept[#kept + 1] = el if el.tag == "Para" then return { el, el } end end
function Pandoc(doc)
  for i = #kept, 1, -1 do
    local el = kept[i]
    if i % 3 == 0 then el.content = nil end
    if i % 2 == 0 then local _ = pandoc.utils.stringify(el) end
    for _ in pairs(el) do end
    doc.blocks[#doc.blocks + 1] = doc.blocks[(i % #doc.blocks) + 1]
  end
  return doc
end
