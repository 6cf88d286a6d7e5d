-- An element given back with another tag, its inlines never read: a heading takes them as they are;
-- a list cannot hold inlines, which is refused as when they were read. An image given a `content`
-- field keeps its caption (its alt text), which was never read either.
function Image(img)
  img.content = { pandoc.Str("not the caption") }
  return img
end

function Para(p)
  if pandoc.utils.stringify(p):find("heading", 1, true) then
    p.tag = "Header"
    p.level = 2
    return p
  end
  p.tag = "BulletList"
  return p
end
