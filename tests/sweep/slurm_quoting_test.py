#!/usr/bin/python3
"""The slurm backend never lets a value reach a generated script as shell
text (issue 52, N3: a newline in --db ran the text after it in every task).
Stand-ins for sbatch, squeue and scancel, first on PATH, record what they are
given and run the array's tasks and the merge job at once, as Slurm would
run them later. With a database or study folder named with a newline, quotes,
$(...), backticks, spaces and a '%', the sweep (waiting, and --no-wait with
its merge job) runs every point into that very file, no command hidden in
the name runs, and the scripts' only values are quoted.

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/sweep/slurm_quoting_test.py"""
import glob
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))
SWEEP = os.path.join(ROOT, "scripts", "fabricsim-sweep")

# Each name, were it read by a shell, would make a file "pwned*" in the folder.
NAMES = ["x\ntouch pwned1 #.db", "a'b\"; touch pwned2; '.db", "$(touch pwned3).db", "`touch pwned4`.db",
         "sp ace; touch pwned5.db", "per%j%%cent.db"]

SBATCH = r'''#!/usr/bin/python3
# A stand-in for sbatch: records its arguments and script, runs the job now.
import json, os, re, subprocess, sys
args = sys.argv[1:]
record = os.environ["STANDIN_RECORD"]
wrap = next((a[len("--wrap="):] for a in args if a.startswith("--wrap=")), None)
script = None if wrap is not None else args[-1]
text = wrap if wrap is not None else open(script).read()
with open(record, "a") as f:
    f.write(json.dumps({"args": args, "script": text}) + "\n")
array = next((a[len("--array="):] for a in args if a.startswith("--array=")), None)
if array:
    last = int(re.match(r"0-(\d+)", array).group(1))
    for task in range(last + 1):
        subprocess.run(["bash", script], env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(task)))
else:
    subprocess.run(["sh", "-c", text])
print("4242")
'''


class Quoting(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fabricsim_slurm_quoting_")
        bin_dir = os.path.join(self.dir, "bin")
        os.mkdir(bin_dir)
        for name, text in (("sbatch", SBATCH), ("squeue", "#!/bin/sh\nexit 0\n"), ("scancel", "#!/bin/sh\nexit 0\n")):
            path = os.path.join(bin_dir, name)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        self.record = os.path.join(self.dir, "sbatch-calls.jsonl")
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], STANDIN_RECORD=self.record)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def sweep(self, db, *more):
        return subprocess.run(["/usr/bin/python3", SWEEP, "E2a", "--time", "20us", "--sweep", "leaf.cache.entries=8,16",
                               "--sweep", "flow.f1.frame_size=512", "--backend", "slurm", "--jobs", "2",
                               "--db", db, "--fabricsim", BINARY, *more],
                              cwd=self.dir, env=self.env, capture_output=True, text=True, timeout=300)

    def assert_merged_and_nothing_ran(self, db):
        conn = sqlite3.connect(db)
        try:
            self.assertEqual(conn.execute("SELECT count(*) FROM sweep_runs").fetchone()[0], 2)
        finally:
            conn.close()
        pwned = glob.glob(os.path.join(self.dir, "**", "pwned*"), recursive=True)
        self.assertEqual(pwned, [], "a command hidden in a name ran")

    def test_names_with_shell_text_waiting(self):
        for name in NAMES:
            with self.subTest(name=name):
                db = os.path.join(self.dir, name)
                r = self.sweep(db)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assert_merged_and_nothing_ran(db)

    def test_names_with_shell_text_no_wait(self):
        folder = os.path.join(self.dir, "study $(touch pwned6) `touch pwned7`\nx")
        os.mkdir(folder)
        for name in NAMES:
            with self.subTest(name=name):
                db = os.path.join(folder, name)
                r = self.sweep(db, "--no-wait")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("submitted job array", r.stdout)
                self.assert_merged_and_nothing_ran(db)

    def test_the_scripts_hold_no_name_unquoted(self):
        db = os.path.join(self.dir, NAMES[0])
        self.assertEqual(self.sweep(db).returncode, 0)
        with open(self.record) as f:
            calls = [json.loads(line) for line in f]
        task = calls[0]["script"]
        self.assertNotIn("eval", task)
        folder = db + ".sweep-1"
        self.assertGreater(task.count(folder), 0)
        self.assertEqual(task.count(shlex.quote(folder)), task.count(folder), "the work folder unquoted")
        output = next(a for a in calls[0]["args"] if a.startswith("--output="))
        self.assertIn("%A_%a", output)


if __name__ == "__main__":
    sys.exit(unittest.main())
