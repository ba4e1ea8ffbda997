"""Whether the fabricsim writing a 'running' run still lives, as the
recorder decides it (db/run_owner.cpp): same host and boot, and a process
with that id and start time. The report only reads: a run whose process is
gone stays 'running' in the file until the next fabricsim opens it and
marks it 'interrupted'."""
import socket
import sqlite3


def _first_line(path):
    try:
        with open(path) as f:
            return f.readline().strip()
    except OSError:
        return ""


def _start_ticks(pid):
    """Field 22 of /proc/PID/stat, counted after the command's ')'; None if no such process."""
    stat = _first_line(f"/proc/{pid}/stat")
    fields = stat[stat.rfind(")") + 1:].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def owner(conn, run_id):
    """(pid, 'alive' | 'gone' | 'unknown') of the process writing the run,
    or None if the file names none."""
    try:
        row = conn.execute("SELECT host, boot_id, pid, start_ticks FROM run_owners WHERE run_id = ?",
                           (run_id,)).fetchone()
    except sqlite3.OperationalError:  # a file from before run_owners
        return None
    if row is None:
        return None
    host, boot_id, pid, start_ticks = row
    my_boot = _first_line("/proc/sys/kernel/random/boot_id")
    if host != socket.gethostname() or not my_boot:
        return pid, "unknown"
    if boot_id != my_boot:
        return pid, "gone"
    return pid, "alive" if _start_ticks(pid) == start_ticks else "gone"
