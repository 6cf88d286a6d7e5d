#!/bin/sh
# A stand-in for xelatex (tests/publish): counts its runs in $FAKE_XELATEX_RUNS and writes what a pass
# of TeX would: book.aux from the headings of book.tex (so that it changes only when they do), a log
# and a PDF. Like TeX, it reads the .aux of the last pass: the first pass writes one, the second finds
# it unchanged.
echo "$PWD" >> "${FAKE_XELATEX_RUNS:-/dev/null}"
grep -E '(chapter|section)[*]?[{]' book.tex > book.aux.new || true
mv book.aux.new book.aux
cp book.aux book.toc
printf 'This is XeTeX (fake)\nOutput written on book.pdf (1 page).\n' > book.log
printf '%%PDF-1.4\n%% fake\n' > book.pdf
cksum book.tex >> book.pdf
