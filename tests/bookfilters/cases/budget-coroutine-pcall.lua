-- Inside a coroutine, the pcall loop; the coroutine is started again whenever it dies.
function Str(_)
  while true do
    pcall(coroutine.wrap(function() while true do pcall(function() while true do end end) end end))
  end
end
