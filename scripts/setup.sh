#!/usr/bin/env bash
# Installs the Debian packages fabricsim needs, only those that are missing.
set -euo pipefail
PACKAGES=(g++ cmake make pkg-config libsystemc-dev libboost-program-options-dev
          libsqlite3-dev sqlite3 libgtest-dev googletest libbenchmark-dev time python3-matplotlib python3-scipy
          verilator slurm-wlm munge)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
