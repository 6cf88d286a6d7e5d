-- The memory ceiling's error caught by pcall, again and again.
function Header(_)
  while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = i end end) end
end
