#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to reading the book: installs the packages bookbuild
# needs, builds it, builds this repository's book and serves it on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR=build-release scripts/build.sh -DBOOKBUILD_TESTS=OFF
exec build-release/builder/bookbuild --book . site --serve "$@"
