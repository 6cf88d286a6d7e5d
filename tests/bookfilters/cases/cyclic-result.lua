function Span(s)
  s.content = { s }
  return s
end
