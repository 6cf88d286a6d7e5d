function Str(s)
  return pandoc.Para(s.text)
end
