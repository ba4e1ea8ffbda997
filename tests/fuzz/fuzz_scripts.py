#!/usr/bin/env python3
"""The scripts' fuzzer (issue 52): command lines of fabricsim-sweep and
fabricsim-search, the seeds first (issue 52's cases, script_cases.py), then
random ones. Every case ends in exit 0, 1 or 2 within its time, never a
traceback, "internal error", a death by a signal or a hang; a refusal (2)
is one line on stderr; a case that must be refused is (exit 2), with the
words it must name; a case run into a database leaves it whole (PRAGMA
integrity_check), and one refused leaves no run in it.

Environment: FABRICSIM_BINARY (required), FABRICSIM_FUZZ_CASES (random
cases, default 150), FABRICSIM_FUZZ_SEED (default 1),
FABRICSIM_FUZZ_TIMEOUT (seconds per case, default 120),
FABRICSIM_FUZZ_VERBOSE (set: every case with its outcome)."""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_settings import from_environment  # noqa: E402
from script_cases import all_cases, seed_cases  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FORBIDDEN = ("Traceback", "internal error")
WORKERS = 2


def databases(directory):
    out = []
    for base, _, files in os.walk(directory):
        out += [os.path.join(base, f) for f in files if f.endswith(".db") and ".sweep-" not in base]
    return out


def whole(path):
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=False)
        try:
            return conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def run_case(binary, index, case, root, timeout):
    """(outcome, detail): outcome accepted, failed (exit 1), rejected or crash."""
    directory = os.path.join(root, f"case{index}")
    os.mkdir(directory)
    try:
        args = [a.replace("{dir}", directory).replace("{fabricsim}", binary) for a in case.args]
        if "--fabricsim" not in args:
            args += ["--fabricsim", binary]
        if "--db" not in args:
            args += ["--db", os.path.join(directory, "fuzz.db")]
        command = ["/usr/bin/python3", os.path.join(ROOT, "scripts", case.tool), *args]
        try:
            r = subprocess.run(command, cwd=directory, capture_output=True, timeout=timeout,
                               env=dict(os.environ, **case.env))
        except subprocess.TimeoutExpired:
            return "crash", f"a hang: no end within {timeout:g} s"
        stderr = r.stderr.decode("utf-8", "replace")
        if r.returncode < 0 or r.returncode not in (0, 1, 2):
            return "crash", f"exit {r.returncode}: {stderr[-600:]}"
        for needle in FORBIDDEN:
            if needle in stderr:
                return "crash", f"'{needle}' on stderr: {stderr[-600:]}"
        broken = [d for d in databases(directory) if not whole(d)]
        if broken:
            return "crash", f"a database left damaged: {broken}"
        if r.returncode == 2:
            lines = stderr.strip().splitlines()
            if not lines:
                return "crash", "exit 2 without a message"
            message = lines[-1]
            missing = [w for w in case.words if w not in message]
            if missing:
                return "crash", f"the refusal does not name {missing}: {message[:300]}"
            if not message.startswith(f"{case.tool}: "):
                return "crash", f"the refusal is not the tool's one line: {stderr[-600:]}"
            return "rejected", message[:300]
        if case.must_refuse:
            return "crash", f"bad input accepted (exit {r.returncode}): {stderr[-300:]}"
        return ("accepted" if r.returncode == 0 else "failed"), ""
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main():
    settings = from_environment("fuzz_scripts", default_cases=150, default_timeout=120)
    binary, count, seed = settings.binary, settings.cases, settings.seed
    timeout, verbose = settings.timeout, settings.verbose
    started = time.monotonic()
    cases = seed_cases() + all_cases(seed, count)
    root = tempfile.mkdtemp(prefix="fabricsim_fuzz_scripts_")
    try:
        with ThreadPoolExecutor(WORKERS) as pool:
            results = list(pool.map(lambda ic: run_case(binary, ic[0], ic[1], root, timeout), enumerate(cases)))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    tally = {name: 0 for name in ("accepted", "failed", "rejected", "crash")}
    for case, (outcome, detail) in zip(cases, results):
        tally[outcome] += 1
        if outcome == "crash":
            print(f"CRASH {case.label}\n      {detail}")
        elif verbose:
            print(f"{outcome} {case.label}\n      {detail}")
    must = sum(c.must_refuse for c in cases)
    print(f"fuzz_scripts: seed {seed}: {len(cases)} cases ({len(seed_cases())} seeds, {must} that must be refused), "
          f"{tally['accepted']} accepted, {tally['failed']} ended 1, {tally['rejected']} refused, "
          f"{tally['crash']} crashes (tracebacks, hangs, signals, malformed accepted) in "
          f"{time.monotonic() - started:.0f} s")
    sys.exit(1 if tally["crash"] else 0)


if __name__ == "__main__":
    main()
