#!/usr/bin/env bash
# Installs everything bookbuild needs from Debian 12 packages. Idempotent: apt-get skips what is there.
# Usage: scripts/install-deps.sh [--test] [--log FILE]
#   --test      adds what the test suite and benchmarks need
#   --log FILE  where apt's own output goes (default: $TMPDIR/bookbuild-install-deps.log); the screen
#               shows one line per step, and the log's end when a step fails
set -euo pipefail
test_too=0
log="${TMPDIR:-/tmp}/bookbuild-install-deps.log"
while (($#)); do
  case "$1" in
    --test) test_too=1 ;;
    --log)
      log="${2:?--log needs a file}"
      shift
      ;;
    *)
      echo "usage: scripts/install-deps.sh [--test] [--log FILE]" >&2
      exit 2
      ;;
  esac
  shift
done

build_pkgs=(
  build-essential cmake pkg-config git ccache
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  libxml2-dev libzip-dev zlib1g-dev libpoppler-cpp-dev libpugixml-dev
  libgtest-dev libgmock-dev
  libtomlplusplus-dev nlohmann-json3-dev libcpp-httplib-dev libcli11-dev libfreetype-dev libfontconfig-dev
  libicu-dev nettle-dev
  libsource-highlight-dev
  librsvg2-dev
  libgit2-dev liblua5.4-dev
  # What the book itself draws with: its charts name Noto Sans and Noto Sans CJK SC
  # (builder/charts/metrics.cpp, frame.cpp); without them every chart is a `font … not found` warning
  # and is measured with guessed widths.
  fonts-noto-core fonts-noto-cjk
)
test_pkgs=(
  epubcheck default-jre-headless pandoc time chromium nodejs mkdocs mkdocs-material
  cmark-gfm  # its spec.txt.gz: the GFM spec suite (tests/spec)
  # MkDocs builds the corpus the way the real book's site did (tests/dropin: old addresses).
  python3-pymdownx python3-markdown
  clang-format clang libclang-rt-14-dev
  # tests/publish: cpack's Debian package (dpkg-shlibdeps) and the workflows parsed with PyYAML.
  dpkg-dev python3-yaml
  # The PDF (docs/latex.md): XeLaTeX with ctex for Chinese and polyglossia's Russian, the Noto and
  # DejaVu fonts the templates name, and pzdr (hyperref's XeTeX driver) from fonts-recommended.
  # About 1.2 GB and 1.5 minutes with --no-install-recommends.
  texlive-xetex texlive-lang-chinese texlive-lang-cyrillic texlive-fonts-recommended
  fonts-dejavu-core
  # bench/publish: the peer's Pandoc → XeLaTeX PDF (Pandoc's default template loads lmodern, and Pandoc
  # converts SVG figures with rsvg-convert).
  lmodern librsvg2-bin
)

want=("${build_pkgs[@]}")
if ((test_too)); then want+=("${test_pkgs[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian's nodejs ships npm separately; NodeSource's bundles it (and conflicts with Debian's npm).
if ((test_too)) && ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
if ((${#missing[@]} == 0)); then
  echo "packages: all ${#want[@]} installed"
  exit 0
fi
sudo_cmd=""
if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
mkdir -p "$(dirname "$log")"
: >"$log"
# step WHAT COMMAND...: one line on the screen, apt's output in the log; the log's end if it fails.
step() {
  local what="$1"
  shift
  echo "packages: $what"
  echo "== $what" >>"$log"
  if ! "$@" >>"$log" 2>&1 </dev/null; then
    tail -n 20 "$log" >&2
    echo "packages: failed: $what (the whole output is in $log)" >&2
    exit 1
  fi
}
echo "packages: ${#missing[@]} of ${#want[@]} to install (apt's output: $log)"
step "updating the package lists" $sudo_cmd apt-get update
echo "== to install: ${missing[*]}" >>"$log"
step "installing ${#missing[@]} packages (Debian 12: the first time, some minutes)" $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}"
echo "packages: done"
