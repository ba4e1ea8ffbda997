#!/usr/bin/env bash
# Installs the Debian packages fabricsim needs, only those that are missing.
set -euo pipefail
PACKAGES=(g++ cmake make pkg-config libsystemc-dev libboost-program-options-dev
          libsqlite3-dev sqlite3 libgtest-dev googletest libbenchmark-dev time python3-matplotlib python3-scipy python3-optuna python3-pandas
          verilator slurm-wlm munge clang-format)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  # apt's own progress (one line per package fetched, unpacked, set up) goes
  # to stderr: on a fresh machine this takes a few minutes.
  echo "setup: installing ${#missing[@]} Debian packages (a few minutes on a fresh machine): ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: apt-get update" >&2
  $SUDO apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" >&2
  echo "setup: packages installed" >&2
fi
