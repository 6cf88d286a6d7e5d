-- print does not write to the terminal: it becomes a note at the element.
function Header(h)
  print("header", h.level, pandoc.utils.stringify(h))
end
