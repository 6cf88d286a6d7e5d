// Reading a XeLaTeX log: errors with their .tex line, missing characters, and whether another pass
// is needed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bb::latex {

struct TexError {
  std::string file;     // as TeX printed it ("./book.tex", a package path), "" if unknown
  int line = 0;         // line in that file (from `file:line:` or `l.NNN`), 0 if unknown
  std::string message;  // the `!` line, or the text after `file:line:`
  std::string context;  // the `l.NNN …` line: where TeX stopped reading
};

struct TexLog {
  std::vector<TexError> errors;
  std::vector<std::string> missing_characters;  // "Missing character: There is no … in font …!"
  std::vector<std::string> undefined_references;
  bool rerun = false;  // labels, the TOC or the outlines changed: another pass would change the output
};

// Parses a log written with -file-line-error (`./book.tex:12: Undefined control sequence.`); the
// classic `! message` form is understood too.
TexLog parse_tex_log(std::string_view log);

}  // namespace bb::latex
