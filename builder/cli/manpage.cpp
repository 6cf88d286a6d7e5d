// `bookbuild manpage` (hidden): the manual page bookbuild.1, written in roff from the CLI11 definitions
// of every command and option, so that the page cannot fall behind the command line. The build runs
// it (builder/CMakeLists.txt) and installs the result in share/man/man1.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "diag/diagnostics.hpp"

namespace bb::cli {

namespace {

// Text for roff body lines: backslashes escaped, hyphens as minus signs (so that options can be
// copied and searched), a dot or quote that starts a line kept from being read as a request.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if ((out.empty() || out.back() == '\n') && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  return out;
}

bool visible(const CLI::App* sub) {
  return !sub->get_group().empty();
}

std::vector<const CLI::App*> subcommands_of(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (visible(sub)) out.push_back(sub);
  return out;
}

// "--edition E", "-q, --quiet", "what": the option as a reader types it, in bold and italics.
std::string option_synopsis(const CLI::Option& o) {
  std::string names;
  for (const auto& s : o.get_snames())
    names += (names.empty() ? "" : ", ") + std::string("\\fB\\-") + s + "\\fR";
  for (const auto& l : o.get_lnames())
    names += (names.empty() ? "" : ", ") + std::string("\\fB\\-\\-") + roff(l) + "\\fR";
  if (o.get_positional() && o.get_lnames().empty() && o.get_snames().empty())
    return "\\fI" + roff(o.get_name()) + "\\fR";
  // CLI11 gives flags a type size but no type name; a value's type name may carry its validator
  // (`WHEN:{auto,always,never}`): the set of choices is kept, a range or a type is not.
  std::string type = o.get_type_name();
  if (o.get_type_size() != 0 && !type.empty()) {
    std::string choices;
    if (auto colon = type.find(':'); colon != std::string::npos) {
      if (type.compare(colon + 1, 1, "{") == 0) choices = " " + type.substr(colon + 1);
      type.resize(colon);
    }
    if (type == "TEXT") type = "VALUE";
    names += " \\fI" + roff(type) + "\\fR" + roff(choices);
  }
  return names;
}

void options_section(const CLI::App& app, std::ostream& out) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;
    out << ".TP\n" << option_synopsis(*o) << '\n';
    std::string text = o->get_description();
    if (text.empty()) text = o->get_lnames().empty() ? o->get_name() : o->get_lnames().front();
    if (!o->get_default_str().empty() && text.find("default") == std::string::npos)
      text += " (default: " + o->get_default_str() + ")";
    out << roff(text) << '\n';
  }
}

// "bookbuild calc memory": the names from the top down to `app`.
std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

void command_section(const CLI::App& app, std::ostream& out) {
  out << ".SS \"" << roff(command_path(app)) << "\"\n" << roff(app.get_description()) << '\n';
  std::string usage = "\\fB" + roff(command_path(app)) + "\\fR";
  bool has_options = false;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;
    if (o->get_positional() && o->get_lnames().empty())
      usage += " " + std::string(o->get_required() ? "" : "[") + "\\fI" + roff(o->get_name()) + "\\fR" +
               (o->get_required() ? "" : "]");
    else
      has_options = true;
  }
  if (has_options) usage.insert(usage.find("\\fR") + 3, " [\\fIoptions\\fR]");
  if (!subcommands_of(app).empty()) usage += " \\fIcommand\\fR";
  out << ".PP\n" << usage << "\n.RS\n";
  options_section(app, out);
  out << ".RE\n";
  for (const CLI::App* sub : subcommands_of(app)) command_section(*sub, out);
}

// Everything the page says beyond the CLI11 definitions: what is true of every command.
constexpr const char* kExitStatus = R"(.TP
.B 0
Success (warnings may have been printed).
.TP
.B 1
Problems were found in the book (every one is printed as \fIpath\fB:\fIline\fB:\fIcol\fB: error:\fR \fImessage\fR), or a build or check failed; nothing half\-written is left in the output.
.TP
.B 2
Bad usage (an unknown command or option, a bad value), bad input to a \fBcalc\fR command, or a missing tool (XeLaTeX for \fBpdf\fR).
.TP
.B 3
An internal error.
)";

constexpr const char* kFiles = R"(.TP
.I book.toml
The book's configuration, in the \fB\-\-book\fR folder; without \fB\-\-book\fR, the book is the nearest folder upwards from the current one that has a \fIbook.toml\fR (else a \fI.git\fR). A book without one is read in the upstream book's layout (\fImanuscripts/\fR, \fIbook\-en/\fR, \fIbook\-zh\-tw/\fR, \fIbook\-ru/book/\fR).
.TP
.I calculations/
The calc library's data: model configurations, hardware, scenarios and their results, from which every computed number in the text is recomputed.
.TP
.I build/
The default output folder (\fB\-\-out\fR): \fIsite/\fR, \fIepub/\fR, \fIlatex/\fR, \fIpdf/\fR, each replaced only when complete, and \fI.cache/\fR: \fIfigures/\fR, the content\-hash cache of converted figures, \fIsearch/\fR, each edition\(aqs search index, \fIhighlight.bin\fR, the tokens of highlighted code blocks, \fIparsed/\fR and \fIlanguages.bin\fR, parsed chapters and language files, \fIepub/\fR, what each EPUB held, and \fIruns/\fR, the record of the last successful \fBsite\fR, \fBepub\fR or \fBlatex\fR run of each command line. Deleting \fI.cache/\fR is always safe.
)";

constexpr const char* kEnvironment = R"(.TP
\fBTERM\fR
With \fB\-\-progress auto\fR, no status line when it is unset or \fBdumb\fR.
.TP
\fBCOLUMNS\fR
Width of the status line when the terminal does not report its own.
.TP
\fBBOOKBUILD_XELATEX\fR
The XeLaTeX program for \fBbuild\fR, \fBpdf\fR and \fBsite \-\-with\-downloads\fR (default: \fBxelatex\fR from \fBPATH\fR).
.TP
\fBBOOKBUILD_DATA_DIR\fR
Folder holding \fItemplates/\fR, \fIwebsite/\fR and \fIlanguages/\fR (default: \fI../share/bookbuild\fR beside the executable in an installed tree, else the source tree bookbuild was built from).
.TP
\fBBOOKBUILD_PDF_MODULE\fR, \fBBOOKBUILD_SVG_MODULE\fR, \fBBOOKBUILD_ZIP_MODULE\fR, \fBBOOKBUILD_XML_MODULE\fR, \fBBOOKBUILD_HIGHLIGHT_MODULE\fR, \fBBOOKBUILD_GIT_MODULE\fR
The loadable modules that render PDF figures to PNG, convert SVG figures to PDF, write and read ZIP archives (EPUB), parse pages and EPUB entries for \fBcheck\fR, highlight code blocks, and read the book's git repository (default: \fI../lib/bookbuild/\fR beside the executable in an installed tree, else the ones built beside bookbuild).
.TP
\fBSOURCE_DATE_EPOCH\fR
The modification time recorded in the EPUBs (seconds since 1970), for reproducible builds; default: the time of the repository's HEAD commit, else of the newest manuscript.
.TP
\fBBOOKBUILD_TIMINGS\fR
When set, \fBsite\fR prints the time of each step of a build and rebuild, and how many chapter passes of the book's filters ran or were reused from \fI<out>/.cache/filtered/\fR.
.TP
\fBBOOKBUILD_RUN_RECORD\fR
\fB0\fR: \fBbuild\fR, \fBsite\fR, \fBepub\fR and \fBlatex\fR neither use nor write the record that lets a run whose inputs and outputs did not change print what the last run printed and stop (\fI<out>/.cache/runs/\fR). \fBexplain\fR: say on standard error why a record was or was not used, or not written.
.TP
\fBBOOKBUILD_DEFAULT_MALLOC\fR
When set to 1, the heap keeps glibc's defaults (an arena per thread, large blocks mapped one by one, no transparent huge pages) instead of the set-up made for a short build (see docs/pipeline.md). \fBsite \-\-serve\fR always keeps them.
)";

constexpr const char* kExamples = R"(.TP
.B bookbuild build
Write an EPUB and a PDF per edition, the site that links them, and the build record \fIbuild/build.json\fR.
.TP
.B bookbuild init mybook && cd mybook && bookbuild site \-\-serve
Start a new book, build its site and read it at http://127.0.0.1:8000/, rebuilt and reloaded as the manuscripts change.
.TP
.B bookbuild check
Check every edition: the manuscripts parse, references and links resolve, and every computed number equals its recomputation.
.TP
.B bookbuild diff main \-\-format markdown
Every number that moves between main and the work tree, in every edition at its line, and the translations that still show a number the source edition changed, as a pull request comment.
.TP
.B bookbuild pdf \-\-edition en
Typeset the English edition with XeLaTeX into \fIbuild/pdf/\fR.
.TP
.B bookbuild \-\-progress never site \-\-with\-downloads
Build the PDF and EPUB of every edition, then the site that links them, without a status line.
.TP
.B bookbuild completion bash > /etc/bash_completion.d/bookbuild
Install the bash completion script.
)";

}  // namespace

void write_manpage(const CLI::App& app, std::ostream& out) {
  out << ".\\\" bookbuild.1: written by `bookbuild manpage` from the command-line definitions; do not edit.\n"
      << ".TH BOOKBUILD 1 \"\" \"bookbuild " << BOOKBUILD_VERSION << "\" \"User Commands\"\n"
      << ".SH NAME\nbookbuild \\- build a multilingual technical book into a website, EPUB and PDF, and "
         "check it\n"
      << ".SH SYNOPSIS\n.B bookbuild\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR]\n"
      << ".SH DESCRIPTION\n"
      << roff(app.get_description()) << '\n'
      << ".PP\nThe book is Markdown manuscripts, one folder per edition (language), and a \\fIbook.toml\\fR. "
         "Every problem found is reported as \\fIpath\\fB:\\fIline\\fB:\\fIcol\\fB: error:\\fR "
         "\\fImessage\\fR, all of them in one run. Global options may come before or after the command.\n"
      << ".SH GLOBAL OPTIONS\n";
  options_section(app, out);
  out << ".SH COMMANDS\n";
  for (const CLI::App* sub : subcommands_of(app)) command_section(*sub, out);
  out << ".SH EXIT STATUS\n"
      << kExitStatus << ".SH ENVIRONMENT\n"
      << kEnvironment << ".SH FILES\n"
      << kFiles << ".SH EXAMPLES\n"
      << kExamples << ".SH SEE ALSO\n"
      << ".BR xelatex (1),\n.BR epubcheck (1)\n"
      << ".PP\nThe \\fIdocs/\\fR folder of the bookbuild sources: manuscripts.md (the Markdown), "
         "configuration.md (book.toml), site.md, epub.md, latex.md, diff.md (the number diff).\n";
}

void define_manpage_command(CLI::App* sub) {
  auto file = std::make_shared<std::string>();
  const CLI::App* app = sub->get_parent();  // the whole command line, which it describes
  sub->add_option("file", *file, "Write it to FILE instead of standard output")->type_name("FILE");
  sub->callback([app, file] {
    std::ostringstream page;
    write_manpage(*app, page);
    if (file->empty()) {
      std::cout << page.str();
      return;
    }
    std::ofstream out(*file, std::ios::binary | std::ios::trunc);
    out << page.str();
    if (!out.flush()) throw FatalError("cannot write " + *file);
  });
}

}  // namespace bb::cli
