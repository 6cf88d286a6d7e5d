-- Backtracking inside the C string library: four lazy repetitions over 20,000 characters.
function Str(s)
  return pandoc.Str(tostring(("a"):rep(20000):find(".-.-.-.-b")))
end
