function Link(l)
  l.target = "https://example.com/other"
  l.title = ""
  return l
end
function Code(c) return pandoc.Code(c.text .. "()") end
function Math(m)
  if m.mathtype == "InlineMath" then return pandoc.Math("InlineMath", m.text .. "+1") end
end
function Span(s)
  s.attributes.key = nil
  s.attributes.extra = "yes"
  s.identifier = "made"
  return s
end
