-- Few instructions, much work in C: a fresh 1 MiB string each time (the CPU time stops it).
function Header(_)
  while true do local s = string.rep("x", 1 << 20) end
end
