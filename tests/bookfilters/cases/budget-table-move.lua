-- table.move over 2^62 empty slots: a loop inside C that allocates nothing.
function Header(_)
  table.move({}, 1, 1 << 62, 1, {})
end
