"""Waiting, in a test, until a database that another process writes holds enough rows."""
import sqlite3
import time


def wait_for_rows(db, sql, at_least, timeout=120):
    """Polls `sql` (a count) on `db` until it reaches `at_least` or `timeout`
    seconds pass; returns the last count (0 while the file cannot be read)."""
    deadline = time.time() + timeout
    count = 0
    while time.time() < deadline and count < at_least:
        time.sleep(0.2)
        try:
            conn = sqlite3.connect(db, timeout=10)
            try:
                count = conn.execute(sql).fetchone()[0]
            finally:
                conn.close()
        except sqlite3.Error:
            count = 0
    return count
