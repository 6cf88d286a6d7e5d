function Str(s)
  return s +
end
