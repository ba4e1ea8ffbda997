"""What the tests of a script tool share (tests/equivalence/, tests/campaign/):
the tool run from scripts/ as a user runs it, and a check that prints the
tool's output and fails the test when it does not hold."""
import os
import stat
import subprocess
import sys

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")


def run_tool(name, *args, timeout=600):
    return subprocess.run([os.path.join(SCRIPTS, name), *args], capture_output=True, text=True, timeout=timeout)


def wrapped_binary(directory, binary, *sets):
    """A fabricsim in `directory` that runs `binary` with `--set KEY=VALUE` for
    each of `sets` after the caller's options: a deliberately broken model."""
    wrapper = os.path.join(directory, "fabricsim")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\nexec "{binary}" "$@"' + "".join(f" --set {s}" for s in sets) + "\n")
    os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
    return wrapper


def expect(condition, what, r):
    if not condition:
        print("FAILED:", what, "\n--- stdout\n" + r.stdout[-6000:] + "\n--- stderr\n" + r.stderr[-2000:])
        sys.exit(1)
