# Shared by the shell benchmarks (source it): one way to time a command, take a median, find a book's
# editions and chapter files, and set up the MkDocs projects that stand in for the real book's site.
# Callers set `out` (a scratch folder) before calling measure.

[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is not installed (apt-get install time)"; exit 1; }

# measure CMD...: prints "seconds kilobytes cpu-seconds": wall time from the clock in nanoseconds
# (/usr/bin/time rounds it to 10 ms), peak resident memory and user+system CPU from /usr/bin/time.
# CPU time is printed too because wall time on a shared machine depends on the others' load.
measure() {
  local start end kb user sys
  start="$(date +%s%N)"
  /usr/bin/time -f '%M %U %S' -o "$out/.rss" "$@" >/dev/null 2>"$out/.err" || { cat "$out/.err" >&2; return 1; }
  end="$(date +%s%N)"
  read -r kb user sys < <(tail -1 "$out/.rss")
  awk -v ns="$((end - start))" -v kb="$kb" -v u="$user" -v s="$sys" 'BEGIN { printf "%.4f %d %.2f\n", ns / 1e9, kb, u + s }'
}

# median: the middle value of the numbers on stdin (the upper one of an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 2) / 2)] }'; }

# book_editions BOOKBUILD BOOK: "id lang" per edition, as bookbuild sees the book.
book_editions() {
  "$1" --book "$2" check 2>/dev/null | awk '/^[a-z-]+ \(/ { gsub(/[():]/, "", $2); print $1, $2 }'
}

# edition_folder BOOK ID: the folder of an edition in the real book's layout (the corpus has no
# book.toml and uses it).
edition_folder() {
  case "$2" in
    zh) echo "$1/manuscripts" ;;
    en) echo "$1/book-en" ;;
    zh-tw) echo "$1/book-zh-tw" ;;
    ru) echo "$1/book-ru/book" ;;
    *) echo "unknown edition $2" >&2; return 1 ;;
  esac
}

# chapter_files FOLDER: the chapter files of an edition folder in reading order.
chapter_files() {
  (cd "$1" && ls | grep -E '^([0-9]+-.*|chapter[0-9]+|introduction|preface)\.md$' | sort -V)
}

# mkdocs_projects BOOK DIR: one MkDocs Material project per edition folder of BOOK under DIR (same
# chapters and figures, the arithmatex math extension the real book uses); prints their paths.
mkdocs_projects() {
  local book="$1" dir="$2" folder proj lang
  declare -A langs=([manuscripts]=zh [book-en]=en [book-zh-tw]=zh [book-ru/book]=ru)
  for folder in manuscripts book-en book-zh-tw book-ru/book; do
    [[ -d "$book/$folder" ]] || continue
    proj="$dir/mkdocs-${folder//\//-}"
    mkdir -p "$proj"
    ln -sfn "$book/$folder" "$proj/docs"
    cat >"$proj/mkdocs.yml" <<YAML
site_name: bench
theme:
  name: material
  language: ${langs[$folder]}
plugins:
  - search
markdown_extensions:
  - tables
  - footnotes
  - pymdownx.arithmatex:
      generic: true
YAML
    echo "$proj"
  done
}
