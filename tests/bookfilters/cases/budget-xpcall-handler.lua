-- The error handler itself loops: it runs under the budget too.
function Str(_)
  while true do xpcall(function() error("first") end, function(e) while true do end end) end
end
