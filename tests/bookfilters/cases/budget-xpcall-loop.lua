-- The budget's error caught by xpcall, whose handler swallows it.
function Str(_)
  while true do xpcall(function() while true do end end, function(e) return "ignored" end) end
end
