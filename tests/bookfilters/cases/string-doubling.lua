-- Doubling a string: each step allocates twice the last, until the ceiling.
function Code(c)
  local s = c.text
  for _ = 1, 64 do
    s = s .. s
  end
end
