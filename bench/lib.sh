# Shared by the shell benchmarks (source it): one way to time a command, take a median, find a book's
# editions and chapter files, and set up the MkDocs projects that stand in for the real book's site.
# Callers set `out` (a scratch folder) before calling measure. A benchmark whose measured command
# fails must fail: measure then prints no figure, shows the command's stderr and returns 1 (callers
# run under `set -e`, or call `fail`).

command -v python3 >/dev/null || { echo "python3 is not installed"; exit 1; }

# measure CMD...: prints "seconds kilobytes cpu-seconds" of one run of CMD (stdout to /dev/null,
# stderr to $out/.err): wall time from just before the process is spawned to just after it is reaped
# (time.perf_counter_ns around posix_spawn and wait4), and its peak resident memory and user+system
# CPU from wait4's rusage (microseconds). Nothing is printed on stdout when CMD fails. No other process is timed: starting /usr/bin/time and two
# `date`s inside the measured span used to add ~5-10 ms on this VM, nothing for a 1 s peer and a
# sixth of a 40 ms bookbuild run. CPU time is printed too because wall time on a shared machine
# depends on the others' load.
measure() {
  python3 - "$out/.err" "$@" <<'PY' || { cat "$out/.err" >&2; echo "measured command failed: $*" >&2; return 1; }
import os, sys, time
err, cmd = sys.argv[1], sys.argv[2:]
actions = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
           (os.POSIX_SPAWN_OPEN, 2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
start = time.perf_counter_ns()
pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=actions)
_, status, usage = os.wait4(pid, 0)
end = time.perf_counter_ns()
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(1)  # a failed run has no figure: a time of it would be the time to fail
print(f"{(end - start) / 1e9:.4f} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime:.4f}")
PY
}

# fail MESSAGE: stop the benchmark (exit 1) with MESSAGE on stderr, before any table line is printed
# for the failed job.
fail() {
  echo "benchmark failed: $*" >&2
  exit 1
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
