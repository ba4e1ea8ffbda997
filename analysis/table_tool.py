"""What the table tools (sweep-table, phase-table, ber-table,
backplane-table, ibft-table, ring-table, job-table) share: which runs of a
database a table holds (only those that are done, of its platform), what it
says of the others, and the body of a table with its plots. Their command
line and exit statuses are fabricpy/tool.py's."""
import sys

from analysis.rundb import open_database
from fabricpy.errors import ReportError
from fabricpy.option_values import output_file


def no_finished_run(conn):
    """The error of a table without a run that is done: what the database holds instead."""
    held = ", ".join(f"{n} {status}" for status, n in conn.execute(
        "SELECT status, count(*) FROM runs GROUP BY status ORDER BY status"))
    return ReportError(f"no finished run in this database (it holds {held or 'no runs'})")


def only_done_runs(conn, rows):
    """The rows (dicts with a run_id) of runs that are done: a table leaves
    the others out, as note_unfinished_runs then says."""
    done = {run_id for (run_id,) in conn.execute("SELECT run_id FROM runs WHERE status = 'done'")}
    return [r for r in rows if r["run_id"] in done]


def require_platform(conn, platform, tool_name):
    """A ReportError unless every run of the database is of `platform`: a
    table of one platform's runs refuses another platform's database."""
    columns = {c for (_, c, *_rest) in conn.execute("PRAGMA table_info(runs)")}
    if "platform" not in columns:
        return  # a version-2 file: fabric runs only
    others = conn.execute("SELECT run_id, platform FROM runs WHERE platform <> ? ORDER BY run_id LIMIT 1",
                          (platform,)).fetchone()
    if others:
        raise ReportError(f"{tool_name} reads runs of the {platform} platform; run {others[0]} is of platform "
                          f"'{others[1]}' (another kind of database)")


def runs_not_done(conn):
    """['run 2 (backplane, interrupted)', ...]: the runs a table leaves out."""
    columns = {c for (_, c, *_rest) in conn.execute("PRAGMA table_info(runs)")}
    platform = "platform" if "platform" in columns else "'fabric'"
    return [f"run {run_id} ({kind}, {status})" for run_id, kind, status in conn.execute(
        f"SELECT run_id, {platform}, status FROM runs WHERE status <> 'done' ORDER BY run_id")]


def note_unfinished_runs(prog, conn):
    """Says on stderr which runs a table leaves out because they are not done."""
    for run_id, status in conn.execute("SELECT run_id, status FROM runs WHERE status <> 'done' ORDER BY run_id"):
        print(f"{prog}: run {run_id} is '{status}', so it is not in the table (only runs that are done are)",
              file=sys.stderr)


def table_with_plots(prog, db, plots, collect, table, empty=None):
    """The body of a table tool (ber-table, backplane-table, ibft-table):
    checks that each plot can be written before anything is read, prints
    table(collect(conn)), names the runs it leaves out, then draws each plot.
    plots: [(path, draw(rows, path)) or (path, draw, why_not(rows))], where
    why_not says in one line why the rows give that figure no point (it is
    then not drawn), or None; empty: the error when there are no rows."""
    for path, *_ in plots:
        output_file("--plot", path)
    conn = open_database(db)
    rows = collect(conn)
    if not rows and empty:
        left = runs_not_done(conn)
        raise ReportError(empty + (f"; left out, as only runs that are done are tabulated: {', '.join(left)}"
                                   if left else ""))
    print(table(rows))
    note_unfinished_runs(prog, conn)
    written = []
    for path, draw, *why_not in plots:
        reason = why_not[0](rows) if why_not else None
        if reason:
            print(f"\nno {path}: {reason}")
            continue
        draw(rows, path)
        written.append(path)
    if written:
        print("\nwrote " + " and ".join(written))
    return 0
