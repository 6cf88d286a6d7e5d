-- Writes what the book answers about `sec:kv` and `answer` at the end of the chapter, and marks every
-- Str, so that a test sees whether a tree went through the filter.
function Str(s)
  return pandoc.Str(s.text .. "!")
end

function Pandoc(doc)
  local kv = bookbuild.label("sec:kv")
  local value, why = bookbuild.calc("answer")
  local said = (kv and ("sec:kv is " .. kv.number .. " " .. kv.title) or "sec:kv is unknown") ..
               "; answer is " .. tostring(value or why)
  doc.blocks[#doc.blocks + 1] = pandoc.Para(said)
  return doc
end
