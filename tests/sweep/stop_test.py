#!/usr/bin/python3
"""A runner killed outright (issue 37).

NoChildOutlivesTheRunner: the runner killed with SIGKILL while fabricsim
lists the points, and while points run: no fabricsim it started lives on
(the kernel's parent-death signal).

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/sweep/stop_test.py [CLASS]"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")


def processes():
    """pid -> (parent pid, state, command line) of every process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        out[int(name)] = (int(fields[1]), fields[0], command)
    return out


def alive(pid, command):
    """Whether `pid` still runs `command` (a zombie has ended)."""
    p = processes().get(pid)
    return p is not None and p[1] != "Z" and p[2] == command


def running_with(text):
    """The live processes whose command line holds `text` (a sweep's database path)."""
    return [pid for pid, (_, state, command) in processes().items() if text in command and state != "Z"
            and pid != os.getpid()]


class NoChildOutlivesTheRunner(unittest.TestCase):
    def assert_ended(self, pids, within):
        deadline = time.monotonic() + within
        while any(alive(pid, command) for pid, command in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual([(pid, command) for pid, command in pids if alive(pid, command)], [])

    def test_while_it_lists_the_points(self):
        with tempfile.TemporaryDirectory() as d:
            listing = os.path.join(d, "listing")
            stand_in = os.path.join(d, "fabricsim")
            with open(stand_in, "w") as f:  # lists the points for ever
                f.write(f"""#!/bin/sh
case "$*" in *--points*) echo $$ > {listing}; exec sleep 300 ;; esac
exec {BINARY} "$@"
""")
            os.chmod(stand_in, 0o755)
            runner = subprocess.Popen([SWEEP, "E2a", "--db", os.path.join(d, "s.db"), "--fabricsim", stand_in],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while not (os.path.exists(listing) and os.path.getsize(listing)) and time.monotonic() < deadline:
                time.sleep(0.05)
            with open(listing) as f:
                pid = int(f.read())
            time.sleep(0.2)  # the shell has become sleep
            command = processes()[pid][2]
            self.assertIn("sleep 300", command)
            runner.send_signal(signal.SIGKILL)
            runner.wait()
            self.assert_ended([(pid, command)], within=5)

    def test_while_points_run(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "s.db")
            runner = subprocess.Popen([SWEEP, "E2a", "--time", "5ms", "--db", db, "--jobs", "2", "--fabricsim", BINARY],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            children = []
            while len(children) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
                children = [(pid, command) for pid, (parent, state, command) in processes().items()
                            if parent == runner.pid and "--set-swept" in command]
            self.assertEqual(len(children), 2, "two points running")
            runner.send_signal(signal.SIGKILL)
            runner.wait()
            self.assert_ended(children, within=30)  # each writes its run out (interrupted) and ends
            self.assertEqual(running_with(db), [])


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
    unittest.main(verbosity=2)
