#!/usr/bin/env bash
# Installs everything bookbuild needs from Debian 12 packages. Idempotent: apt-get skips what is there.
# Usage: scripts/install-deps.sh [--test]   (--test adds what the test suite and benchmarks need)
set -euo pipefail

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
  fonts-noto-cjk fonts-noto-core fonts-dejavu-core
  # bench/publish: the peer's Pandoc → XeLaTeX PDF (Pandoc's default template loads lmodern, and Pandoc
  # converts SVG figures with rsvg-convert).
  lmodern librsvg2-bin
)

want=("${build_pkgs[@]}")
if [[ "${1:-}" == "--test" ]]; then want+=("${test_pkgs[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian's nodejs ships npm separately; NodeSource's bundles it (and conflicts with Debian's npm).
if [[ "${1:-}" == "--test" ]] && ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
if ((${#missing[@]})); then
  sudo_cmd=""
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
