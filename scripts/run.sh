#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, run the default study
# (arguments are passed to fabricsim), writing fabric.db.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >&2  # its progress on the terminal, the study's summary on stdout
exec build/fabricsim "$@"
