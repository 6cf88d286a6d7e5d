-- A filter may return its functions in a table, as Pandoc filters do.
return {
  Header = function(h)
    h.level = h.level + 1
    h.classes[#h.classes + 1] = "shifted"
    h.attributes["data-x"] = "1"
    return h
  end,
}
