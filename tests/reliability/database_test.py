#!/usr/bin/python3
"""The database file's edges for the Python tools and fabricsim (issue 52).

UpgradeKeepsUserObjects (N5): a file of schema version 4 with the user's
own view and index on samples is brought up to this version by
fabricsim-sweep's store (schema_versions.migrate) and by fabric-report,
keeping them; one that reads a column the upgrade removes refuses the
upgrade, naming it, and leaves the file as it was.

LockHolderIsNamed (N15): a writer kept waiting by another process's lock
says once, after about a second, which process holds it.

DiskFull (N13): a disk that fills during a run (a small tmpfs, as root).

UnwritableFolder (N15): a writable file in a folder that cannot be written
is refused by fabricsim and the sweep's store as a folder that cannot be
written (SQLite makes its journal there), not as a read-only file.

FABRICSIM_BINARY names the simulator.
Run: /usr/bin/python3 tests/reliability/database_test.py [CLASS]"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..")
sys.path.insert(0, SOURCE)
sys.path.insert(0, os.path.join(SOURCE, "tests", "report"))
from fabricpy import schema_versions, user_schema_objects  # noqa: E402
from report_fixture import back_to_version  # noqa: E402
from sweep import store  # noqa: E402

BINARY = os.environ.get("FABRICSIM_BINARY", os.path.join(SOURCE, "build", "fabricsim"))
REPORT = os.path.join(SOURCE, "scripts", "fabric-report")
TWO_LEAF_FABRIC = ["--study", "perm640", "--set", "topology.racks=1", "--set", "topology.leaves=2", "--quiet"]
TWO_LEAVES = TWO_LEAF_FABRIC + ["--time", "20us"]
NOBODY = 65534


def fabricsim(db, *extra, **kwargs):
    return subprocess.run([BINARY, "--db", db, *TWO_LEAVES, *extra], capture_output=True, text=True, **kwargs)


def objects(db, pattern="my_*"):
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, name FROM sqlite_schema WHERE name GLOB ? ORDER BY name",
                            (pattern,)).fetchall()
    finally:
        conn.close()


def version(db):
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    finally:
        conn.close()


class UpgradeKeepsUserObjects(unittest.TestCase):
    KEPT = ("CREATE VIEW my_means AS SELECT run_id, metric, avg(value) AS mean FROM samples GROUP BY run_id, metric;"
            "CREATE INDEX my_samples_by_metric ON samples(metric);"
            "CREATE VIEW my_event_kinds AS SELECT DISTINCT kind FROM events;")
    LOST = "CREATE VIEW my_by_entity AS SELECT entity, value FROM samples;"

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="upgrade_test_")
        cls.v5 = os.path.join(cls.dir, "v5.db")
        result = fabricsim(cls.v5)
        assert result.returncode == 0, result.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def version_4_file(self, name, users_sql):
        db = os.path.join(self.dir, name)
        shutil.copy(self.v5, db)
        back_to_version(db, 4)
        conn = sqlite3.connect(db)
        conn.executescript(users_sql)
        conn.close()
        return db

    def expect_kept(self, db):
        self.assertEqual(version(db), schema_versions.current())
        self.assertEqual(objects(db), [("view", "my_event_kinds"), ("view", "my_means"),
                                       ("index", "my_samples_by_metric")])
        conn = sqlite3.connect(db)
        try:
            self.assertGreater(conn.execute("SELECT count(*) FROM my_means").fetchone()[0], 0)
            self.assertEqual(conn.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        finally:
            conn.close()

    def test_the_sweeps_store_keeps_them(self):
        db = self.version_4_file("store.db", self.KEPT)
        conn = store.connect(db)
        store.ensure_schema(conn)
        conn.close()
        self.expect_kept(db)

    def test_fabric_report_keeps_them(self):
        db = self.version_4_file("report.db", self.KEPT)
        result = subprocess.run(["/usr/bin/python3", REPORT, db, "--out", os.path.join(self.dir, "report")],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.expect_kept(db)

    def test_one_on_a_removed_column_refuses_and_changes_nothing(self):
        db = self.version_4_file("lost.db", self.KEPT + self.LOST)
        with open(db, "rb") as f:
            before = f.read()
        conn = store.connect(db)
        with self.assertRaises(user_schema_objects.UpgradeRefused) as refused:
            store.ensure_schema(conn)
        conn.close()
        message = str(refused.exception)
        self.assertIn("upgrading it from schema version 4 to 6 cannot keep your view 'my_by_entity' "
                      "(no such column: entity)", message)
        self.assertIn('DROP VIEW "my_by_entity";', message)
        self.assertNotIn("my_means", message)  # that one could be kept
        with open(db, "rb") as f:
            self.assertEqual(f.read(), before)
        result = subprocess.run(["/usr/bin/python3", REPORT, db, "--out", os.path.join(self.dir, "lost")],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("cannot keep your view 'my_by_entity'", result.stderr)
        self.assertNotIn("cannot write the file", result.stderr)
        self.assertEqual(version(db), "4")


class LockHolderIsNamed(unittest.TestCase):
    def test_a_waiting_writer_says_who_holds_the_lock(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "locked.db")
            self.assertEqual(fabricsim(db).returncode, 0)
            holder = subprocess.Popen(["/usr/bin/python3", "-c", (
                "import sqlite3, sys, time\n"
                f"c = sqlite3.connect({db!r}, isolation_level=None)\n"
                "c.execute('BEGIN IMMEDIATE')\n"
                "print('held', flush=True)\n"
                "time.sleep(3)\n"
                "c.execute('ROLLBACK')\n")], stdout=subprocess.PIPE, text=True)
            try:
                self.assertEqual(holder.stdout.readline().strip(), "held")
                started = time.monotonic()
                writer = subprocess.run(["/usr/bin/python3", "-c", (
                    f"import sys; sys.path.insert(0, {os.path.abspath(SOURCE)!r})\n"
                    "from sweep import store\n"
                    f"conn = store.connect({db!r})\n"
                    "store.ensure_schema(conn)\n"
                    "conn.execute('BEGIN IMMEDIATE')\n"
                    "conn.execute('ROLLBACK')\n")], capture_output=True, text=True)
                waited = time.monotonic() - started
            finally:
                holder.wait()
                holder.stdout.close()
            self.assertEqual(writer.returncode, 0, writer.stderr)
            self.assertGreater(waited, 1.5)  # it waited for the holder, past the second
            self.assertEqual(writer.stderr.count("\n"), 1, writer.stderr)
            self.assertIn(f"fabricsim-sweep: waiting for the lock on '{db}' held by process {holder.pid} (python3)",
                          writer.stderr)

    def test_fabricsim_names_the_holder(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "locked.db")
            self.assertEqual(fabricsim(db).returncode, 0)
            conn = sqlite3.connect(db, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            run = subprocess.Popen([BINARY, "--db", db, *TWO_LEAVES], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
            time.sleep(2.5)
            conn.execute("ROLLBACK")
            conn.close()
            _, err = run.communicate(timeout=60)
            self.assertEqual(run.returncode, 0, err)
            self.assertIn(f"fabricsim: waiting for the lock on '{db}' held by process {os.getpid()}", err)


class UnwritableFolder(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="folder_test_")
        os.chmod(self.tmp, 0o755)
        self.folder = os.path.join(self.tmp, "ro")
        os.mkdir(self.folder)
        self.db = os.path.join(self.folder, "x.db")
        self.assertEqual(fabricsim(self.db).returncode, 0)
        os.chmod(self.db, 0o666)
        os.chmod(self.folder, 0o555)

    def tearDown(self):
        os.chmod(self.folder, 0o755)
        shutil.rmtree(self.tmp)

    @staticmethod
    def as_a_user():
        """Root writes any folder: the child runs as nobody then."""
        if os.geteuid() == 0:
            os.setgid(NOBODY)
            os.setuid(NOBODY)

    def test_fabricsim_says_the_folder_cannot_be_written(self):
        result = fabricsim(self.db, preexec_fn=self.as_a_user)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
        self.assertIn(f"the directory '{self.folder}' is not writable, and SQLite creates the file's journal "
                      "(x.db-wal) in it", result.stderr)
        self.assertNotIn("read-only", result.stderr)

    def test_the_sweeps_store_says_it_too(self):
        result = subprocess.run(["/usr/bin/python3", "-c", (
            f"import sys; sys.path.insert(0, {os.path.abspath(SOURCE)!r})\n"
            "from sweep import store\n"
            f"store.connect({self.db!r})\n")], capture_output=True, text=True, preexec_fn=self.as_a_user)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn(f"ValueError: the directory '{self.folder}' is not writable", result.stderr)


class DiskFull(unittest.TestCase):
    """A disk that fills while a run writes (N13): one line, exit 1, the
    file whole, the earlier run intact, the cut run interrupted (marked by
    the next fabricsim when even its status found no room). Needs a small
    file system of its own: a tmpfs, mounted as root."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="disk_full_test_")
        self.disk = os.path.join(self.tmp, "disk")
        os.mkdir(self.disk)
        mounted = os.geteuid() == 0 and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", self.disk], capture_output=True).returncode == 0
        if not mounted:
            shutil.rmtree(self.tmp)
            self.skipTest("needs root to mount a small tmpfs")

    def tearDown(self):
        subprocess.run(["umount", self.disk], capture_output=True)
        shutil.rmtree(self.tmp)

    def fill(self):
        with open(os.path.join(self.disk, "filler"), "wb") as f:
            try:
                while True:
                    f.write(b"\0" * (1 << 16))
                    f.flush()
            except OSError:
                pass

    def test_a_run_cut_short_by_a_full_disk_leaves_a_whole_file(self):
        db = os.path.join(self.disk, "full.db")
        self.assertEqual(fabricsim(db).returncode, 0)
        # 10 ports at line rate for 3 ms write about 18 MB: within the free space before the run.
        run = subprocess.Popen([BINARY, "--db", db, *TWO_LEAF_FABRIC, "--set", "traffic.pattern=permutation", "--set",
                                "traffic.permutation=shift", "--set", "traffic.shift=5", "--time", "3ms"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        while run.poll() is None and sum(os.path.getsize(f) for f in (db, db + "-wal") if os.path.exists(f)) < 2 << 20:
            time.sleep(0.01)
        self.fill()
        _, err = run.communicate(timeout=120)
        self.assertEqual(run.returncode, 1, err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertIn("the disk is full; run 2 is cut short: its rows up to ", err)
        self.assertIn("the runs before it are intact", err)
        os.remove(os.path.join(self.disk, "filler"))
        conn = sqlite3.connect(db)
        try:
            self.assertEqual(conn.execute("PRAGMA integrity_check").fetchone()[0], "ok")
            self.assertEqual(conn.execute("SELECT status FROM runs WHERE run_id = 1").fetchone()[0], "done")
        finally:
            conn.close()
        after = fabricsim(db)
        self.assertEqual(after.returncode, 0, after.stderr)
        conn = sqlite3.connect(db)
        try:
            self.assertEqual(conn.execute("SELECT run_id, status FROM runs ORDER BY run_id").fetchall(),
                             [(1, "done"), (2, "interrupted"), (3, "done")])
            self.assertGreater(conn.execute("SELECT sim_time_ps FROM runs WHERE run_id = 2").fetchone()[0], 0)
        finally:
            conn.close()


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + sys.argv[1:], verbosity=2)
