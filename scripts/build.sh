#!/usr/bin/env bash
# Installs what is missing, then configures and builds fabricsim in ./build.
#
# Profile-guided: an instrumented fabricsim (build/pgo-train) first runs a
# short training set (the full-load 640-port permutation for 20 us, and E11),
# and ./build is compiled with its profile: runs are 3-8 % faster. The
# training is redone when a source is newer than the profile, and ./build is
# then rebuilt from clean, since the compiler does not track the profile as
# an input. (`cmake --build build` alone stays incremental: code edited since
# the training compiles without profile.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs="$(nproc)"
clean_first=
train=build/pgo-train
profile="$PWD/build/pgo-profile"
if [ ! -f "$profile/.trained" ] || \
   [ -n "$(find model platforms traffic db CMakeLists.txt -newer "$profile/.trained" -print -quit)" ]; then
  echo "build: step 1 of 3, the training build of fabricsim (profile-guided build, redone when a source changed)" >&2
  cmake -S . -B "$train" -DCMAKE_BUILD_TYPE=Release -DFABRICSIM_PGO=generate \
        -DFABRICSIM_PGO_DIR="$profile" >/dev/null
  cmake --build "$train" -j"$jobs" --target fabricsim
  rm -rf "$profile"
  mkdir -p "$profile"
  scratch="$(mktemp -d)"
  echo "build: step 2 of 3, training runs (perm640 20 us, E11, E2b 200 us: about a minute)" >&2
  for training in "perm640 --time 20us --record frames" "E11" "E2b --time 200us"; do
    echo "build:   fabricsim --study $training" >&2
    # shellcheck disable=SC2086 # the study and its options are words
    "$train/fabricsim" --study $training --db "$scratch/train.db" --quiet >/dev/null
  done
  rm -rf "$scratch"
  touch "$profile/.trained"
  clean_first=--clean-first
fi
echo "build: step 3 of 3, fabricsim, the RTL blocks and the tests with the profile${clean_first:+ (from clean: a few minutes)}" >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFABRICSIM_PGO=use -DFABRICSIM_PGO_DIR="$profile" >/dev/null
cmake --build build -j"$jobs" ${clean_first:-}
echo "build: done (build/fabricsim)" >&2
