-- A length of 2^62 from __len: table.insert would shift that many slots inside C.
function Header(_)
  local t = setmetatable({}, { __len = function() return 1 << 62 end })
  table.insert(t, 1, "x")
end
