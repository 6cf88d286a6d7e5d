-- New coroutines, each looping until the budget stops it; resume returns the error as a value.
function Str(_)
  while true do coroutine.resume(coroutine.create(function() while true do end end)) end
end
