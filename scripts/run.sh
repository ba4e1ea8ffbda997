#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, run the default study
# (arguments are passed to fabricsim), writing fabric.db.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
exec build/fabricsim "$@"
