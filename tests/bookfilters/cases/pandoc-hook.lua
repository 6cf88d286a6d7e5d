-- FORMAT: latex
-- The whole-document hook, the globals and the book's lookups.
function Pandoc(doc)
  local ref = bookbuild.label("sec:kv")
  local value = bookbuild.calc("answer")
  local missing, why = bookbuild.calc("nope")
  local text = string.format("%s %s %s %s %s/%s %s %s", FORMAT, EDITION, LANG, STAGE, CHAPTER.key,
    CHAPTER.number, ref.number, value)
  doc.blocks[#doc.blocks + 1] = pandoc.Para({ pandoc.Str(text), pandoc.LineBreak(), pandoc.Str(why) })
  doc.blocks[#doc.blocks + 1] = bookbuild.Callout("note", { pandoc.BulletList({ { pandoc.Para("item") } }) })
  return doc
end
