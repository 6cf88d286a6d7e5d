local function down(n)
  return down(n + 1) + 1
end
function Header(_)
  down(1)
end
