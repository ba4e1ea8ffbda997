"""Shared set-up of the fabric-report tests: small studies run with the
real fabricsim, the report run as a user runs it, and Markdown parsing."""
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, SOURCE)
from fabricpy import schema_versions  # noqa: E402
REPORT = os.path.join(SOURCE, "scripts", "fabric-report")
FABRICSIM = os.environ.get("FABRICSIM_BINARY", os.path.join(SOURCE, "build", "fabricsim"))

# A 2-leaf fabric; ports 0, 1, 2, 5 and 6 send to port 4 at full rate: 5:1
# overload (perm640 as the base: no flows of its own once the pattern is
# fan-in). Lossless (PAUSE) as run 1, lossy (drops) as run 2.
FANIN = ["--study", "perm640", "--set", "topology.racks=1", "--set", "topology.leaves=2", "--set", "traffic.pattern=fanin",
         "--set", "traffic.fanin_sources=0,1,2,5,6", "--set", "traffic.fanin_dest=4",
         "--set", "record.sample_interval=2us", "--time", "150us", "--quiet"]


def fabricsim(db, *args):
    result = subprocess.run([FABRICSIM, "--db", db, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"fabricsim {' '.join(args)} failed: {result.stderr}")


def back_to_version(db, version):
    """Turns the file `db` of this schema version into one of an older
    version, as fabricsim wrote it then (tests/db/older_schemas/
    version_<N>.sql, from this version - 1 down)."""
    conn = sqlite3.connect(db)
    try:
        for v in range(int(schema_versions.current()) - 1, version - 1, -1):
            with open(os.path.join(SOURCE, "tests", "db", "older_schemas", f"version_{v}.sql")) as f:
                conn.executescript(f.read())
    finally:
        conn.close()


def table_tool(name, db, *args):
    """Runs scripts/NAME (sweep-table, phase-table, ber-table) on db as a user would."""
    tool = os.path.join(SOURCE, "scripts", name)
    return subprocess.run(["/usr/bin/python3", tool, db, *args], capture_output=True, text=True)


def report(db, *args):
    """Runs fabric-report as a user would; returns (exit status, stdout, stderr)."""
    result = subprocess.run(["/usr/bin/python3", REPORT, db, *args], capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


class StudyDatabase:
    """The fan-in study, lossless (run 1) and lossy (run 2), in a temp dir."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="fabric_report_test_")
        self.db = os.path.join(self.dir, "fanin.db")
        fabricsim(self.db, *FANIN, "--set", "classes.lossless_priorities=0")
        fabricsim(self.db, *FANIN)

    def out(self, name):
        return os.path.join(self.dir, name)

    def connect(self):
        return sqlite3.connect(self.db)

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def markdown_table(text, heading, after=None):
    """The first Markdown table below `heading` (and below the line that
    contains `after`, if given): (header, rows of cell strings)."""
    start = text.index(heading)
    if after:
        start = text.index(after, start)
    lines = text[start:].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[0], [r for r in rows[2:]]


def png_size(path):
    """(width, height) of a PNG file, or None if it is not one."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def interval(text, heading):
    m = re.search(r"@from_ps = (\d+), @to_ps = (\d+)", text[text.index(heading):])
    return int(m.group(1)), int(m.group(2))


def run_tool(path, *args, env=None):
    """Runs a script (scripts/db-diff, scripts/sweep, or a fake simulator)."""
    return subprocess.run([path, *args], capture_output=True, text=True,
                          env=None if env is None else {**os.environ, **env})


def assert_user_error(test, status, stderr, prog, *words):
    """Exit status 2, one line on stderr that starts with the tool's name
    and holds each of `words`, and no traceback."""
    test.assertEqual(status, 2, stderr)
    test.assertNotIn("Traceback", stderr)
    test.assertNotIn("internal error", stderr)
    lines = stderr.strip().splitlines()
    test.assertEqual(len(lines), 1, stderr)
    test.assertTrue(lines[0].startswith(f"{prog}: "), stderr)
    for word in words:
        test.assertIn(word, lines[0])


class HandMadeDatabase:
    """A database written by hand in db/schema.sql's schema: runs, flows
    and deliveries exactly as a test needs them."""

    def __init__(self, path):
        self.path = path
        self.conn = sqlite3.connect(path)
        with open(os.path.join(SOURCE, "db", "schema.sql")) as f:
            self.conn.executescript(f.read())

    def add_run(self, run_id, status="done", sim_time_ps=None, config="", wall_seconds=0.1):
        self.conn.execute("INSERT INTO runs(run_id, study, config, seed, sim_time_ps, wall_seconds, model_version, "
                          "started_at, status, log_level) VALUES (?, 'hand', ?, 1, ?, ?, 'test', 't', ?, 'frames')",
                          (run_id, config, sim_time_ps, wall_seconds, status))

    def add_flow(self, run_id, flow_id, dst_port):
        self.conn.execute("INSERT INTO flows VALUES (?, ?, ?, 'unicast', ?, 0, 1.0, 100, '100', 0, NULL)",
                          (run_id, flow_id, f"f{flow_id}", flow_id))
        self.conn.execute("INSERT INTO flow_dests VALUES (?, ?, ?)", (run_id, flow_id, dst_port))

    def deliver(self, run_id, frame_id, flow_id, dst_port, t_created_ps, t_delivered_ps, byte_count):
        self.conn.execute("INSERT INTO deliveries(run_id, frame_id, flow_id, dst_port, t_delivered_ps, "
                          "surrogate_levels, bytes, t_created_ps) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
                          (run_id, frame_id, flow_id, dst_port, t_delivered_ps, byte_count, t_created_ps))

    def close(self):
        self.conn.commit()
        self.conn.close()
