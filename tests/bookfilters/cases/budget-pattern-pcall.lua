-- A backtracking search that pcall catches, again and again.
function Str(_)
  local s = ("a"):rep(5000)
  while true do pcall(string.match, s, "(.-)(.-)(.-)b") end
end
