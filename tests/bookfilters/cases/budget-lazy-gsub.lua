-- gsub with three lazy captures over 30,000 characters.
function Para(p)
  local n = select(2, ("x"):rep(30000):gsub("(.-)(.-)(.-)y", "%3%2%1"))
  return pandoc.Para({ pandoc.Str(tostring(n)) })
end
