#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cd build && ctest --output-on-failure -j"$(nproc)"
