-- The whole-document hook's blocks: reading or writing a field of one makes it the whole element;
-- the others are given back as they were, wherever they end up in the list.
function Pandoc(doc)
  doc.blocks[1].level = 3
  local first = doc.blocks[2].content[1].text
  table.remove(doc.blocks, 3)
  doc.blocks[#doc.blocks + 1] = pandoc.Para(first)
  doc.blocks[#doc.blocks + 1] = doc.blocks[1]
  return doc
end
