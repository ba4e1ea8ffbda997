"""The section of a backplane run (platforms.md, E12): the run's figures
from the warm-up on, PAUSE frames per link and the switch's memory, from the
cookbook queries (backplane_figures.sql, pause_rate.sql, max_memory.sql)."""
from analysis.cookbook import run_query
from analysis.labels import duration
from fabricpy.markdown import cells, number, table
from fabricpy.option_values import parse_rate_gbps


def backplane_section(conn, run, warmup_ps):
    columns, rows = run_query(conn, "backplane_figures")
    figures = dict(zip(columns, next((row for row in rows if row[0] == run.run_id), [None] * len(columns))))
    text = (f"### Backplane switch and 802.3x\n\nThe run's figures, as `db/queries/backplane_figures.sql` "
            f"(throughput and latency from the warm-up, backplane.warmup = {duration(warmup_ps)}, on; latency "
            "from the first byte out of the source application to the last byte into the sink; PAUSE on the "
            "busiest station link):\n\n")
    shown = ["throughput_gbps", "discards", "pause_per_s", "pause_share", "latency_mean_us", "latency_p99_us",
             "latency_max_us", "max_memory_bytes"]
    decimals = {"throughput_gbps": 3, "discards": 0, "pause_per_s": 0, "pause_share": 5, "max_memory_bytes": 0}
    text += table(shown, [[number(figures.get(c), decimals.get(c, 2)) for c in shown]])
    columns, rows = run_query(conn, "pause_rate", run=run.run_id, link_gbps=_link_gbps(run))
    text += "\nPAUSE frames per link, as `db/queries/pause_rate.sql`:\n\n"
    text += table(columns, [cells(row[:4], 0) + [number(row[4], 1), number(row[5], 6)] for row in rows]) \
        if rows else "No PAUSE frame was sent.\n"
    columns, rows = run_query(conn, "max_memory", run=run.run_id)
    text += "\nThe shared memory, as `db/queries/max_memory.sql`:\n\n" + table(columns, [cells(row, 0) for row in rows])
    return text


def _link_gbps(run):
    # None (a rate in Mb/s or another notation): the query's default.
    return parse_rate_gbps(run.config.get("backplane.link_gbps", "10"))
