// Reading a XeLaTeX log: errors with their .tex line, missing characters, undefined references and
// overfull boxes with their .tex lines, and whether another pass is needed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bb::typeset {

struct TexError {
  std::string file;     // as TeX printed it ("./book.tex", a package path), "" if unknown
  int line = 0;         // line in that file (from `file:line:` or `l.NNN`), 0 if unknown
  std::string message;  // the `!` line, or the text after `file:line:`
  std::string context;  // the `l.NNN …` line: where TeX stopped reading
};

// A reference to a \label that does not exist: \ref (`Reference`) or \hyperref (`Hyper reference`).
struct UndefinedReference {
  std::string label;
  std::string file;  // the input file TeX was reading ("./book.tex"), "" if unknown
  int line = 0;      // `on input line N`, 0 if TeX did not say
};

// Material that sticks out of its box: a line into the margin (\hbox) or a page over its height
// (\vbox).
struct OverfullBox {
  bool vertical = false;  // \vbox (too high) rather than \hbox (too wide)
  double points = 0;      // how far it sticks out, in TeX points
  std::string file;       // the input file TeX was reading, "" if unknown
  int first_line = 0;     // `at lines 12--15` / `detected at line 12`; 0 if TeX did not say
  int last_line = 0;
};

struct TexLog {
  std::vector<TexError> errors;
  std::vector<std::string> missing_characters;  // "Missing character: There is no … in font …!"
  std::vector<UndefinedReference> undefined_references;
  std::vector<OverfullBox> overfull_boxes;
  bool rerun = false;  // labels, the TOC or the outlines changed: another pass would change the output
};

// Parses a log written with -file-line-error (`./book.tex:12: Undefined control sequence.`); the
// classic `! message` form is understood too.
TexLog parse_tex_log(std::string_view log);

}  // namespace bb::typeset
