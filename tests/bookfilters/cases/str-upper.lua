-- Str holds a run of text (spaces included), not one word: upper-casing it changes every word.
function Str(el)
  el.text = el.text:upper()
  return el
end
