-- A paragraph's plain text, made first from the tree (its inlines not read yet) and then from its
-- inlines once read: the two agree.
function Para(p)
  local unread = pandoc.utils.stringify(p)
  local read = pandoc.utils.stringify(p.content)
  local same = unread == read and "same" or "different"
  return pandoc.Para({ pandoc.Str(unread), pandoc.Str(" | " .. same) })
end
