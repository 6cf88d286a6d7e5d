-- A finalizer runs with Lua's hooks off: one that loops would never be stopped, so __gc is refused.
function Header(_)
  for i = 1, 100000 do setmetatable({}, { __gc = function() while true do end end }) end
end
