"""backplane-table DB [--plot PNG]: the backplane study (E12; scripts/sweep
E12) as a Markdown table, one row per run, as db/queries/backplane_figures.sql
gives it, with what the source document expects beside the variants, and a
plot of the threshold sweep at 1.5 MB (throughput, p99 latency, PAUSE rate
and the most memory used against High, and without flow control) and of the
three variants' throughput and mean latency."""
from analysis import table_tool
from fabricpy import tool
from analysis.cookbook import run_query
from fabricpy.markdown import number, table

COLUMNS = ["run_id", "study", "memory", "pause", "xoff", "throughput_gbps", "discards", "pause_per_s", "pause_share",
           "latency_mean_us", "latency_p99_us", "latency_max_us", "max_memory_bytes"]
DECIMALS = {"throughput_gbps": 3, "pause_per_s": 0, "pause_share": 4, "latency_mean_us": 1, "latency_p99_us": 1,
            "latency_max_us": 1}
# platforms.md, E12: the expected behaviour, per variant.
EXPECTED = {
    ("E12a", "false"): "highest throughput; latency tens of times either 32 KB case",
    ("E12b", "false"): "lower throughput, with discards",
    ("E12c", "true"): "no discard; lowest throughput (blocking costs more than discards); as 1.5 MB with High 16 KB",
}


def _bytes(text):
    units = {"B": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}
    for unit in ("KB", "MB", "GB", "B"):
        if text.endswith(unit):
            return float(text[:-len(unit)]) * units[unit]
    return float(text)


def collect(conn):
    columns, rows = run_query(conn, "backplane_figures")
    return table_tool.only_done_runs(conn, [dict(zip(columns, row)) for row in rows])


def build_table(runs):
    rows = []
    for r in runs:
        note = EXPECTED.get((r["study"], r["pause"]), "")
        if r["study"] == "E12a" and r["pause"] == "true":
            note = "threshold sweep: latency, memory, throughput rise with High, PAUSE rate falls"
        if r["pause"] == "false":
            r = dict(r, xoff="-")
        rows.append([number(r[c], DECIMALS[c]) if c in DECIMALS else ("-" if r[c] is None else r[c])
                     for c in COLUMNS] + [note])
    return table(COLUMNS + ["the document expects"], rows)


def plot(runs, path):
    from matplotlib.ticker import EngFormatter

    from fabricpy import style
    plt = style.pyplot()

    sweep = [r for r in runs if r["study"] == "E12a" and r["pause"] == "true"]
    sweep.sort(key=lambda r: _bytes(r["xoff"]))
    none = next((r for r in runs if r["study"] == "E12a" and r["pause"] == "false"), None)
    if not sweep:
        raise tool.ReportError("no run of the threshold sweep (E12a with backplane.pause = true) in the database")
    highs = [_bytes(r["xoff"]) for r in sweep]
    fig, axes = plt.subplots(2, 3, figsize=(14, 7.5))
    # (figure, axis label, its value in base units from the row, formatter of the y axis)
    panels = [("throughput_gbps", "throughput of frame bytes", lambda v: v * 1e9,
               lambda ax: style.bits_per_second(ax.yaxis)),
              ("latency_p99_us", "p99 latency", lambda v: v * 1e-6, lambda ax: style.log_seconds(ax)),
              ("pause_per_s", "PAUSE frames per second, one link", lambda v: v,
               lambda ax: (ax.set_yscale("log"), ax.yaxis.set_major_formatter(EngFormatter(unit="/s", sep=" ")))),
              ("max_memory_bytes", "most memory used", lambda v: v,
               lambda ax: (ax.set_yscale("log"), style.bytes_(ax.yaxis)))]
    for ax, (metric, label, base, axis) in zip(list(axes.flat)[:4], panels):
        ax.plot(highs, [base(r[metric]) for r in sweep], marker="o", label="1.5 MB, 802.3x at High")
        if none is not None and metric != "pause_per_s":
            ax.axhline(base(none[metric]), color="tab:red", linestyle="--", label="1.5 MB, no flow control")
        ax.set_xscale("log", base=2)
        ax.set_xticks(highs)
        ax.set_xticklabels([r["xoff"].strip() for r in sweep])  # as the key gives it: 4KB, 16KB ...
        ax.minorticks_off()
        axis(ax)
        ax.set_xlabel("High threshold (backplane.xoff); Low = High / 2")
        ax.set_ylabel(label)
    axes.flat[0].legend(fontsize=8)
    # The three variants side by side.
    variants = [(name, next((r for r in runs if (r["study"], r["pause"]) == key), None))
                for name, key in (("E12a\n1.5 MB", ("E12a", "false")), ("E12b\n32 KB", ("E12b", "false")),
                                  ("E12c\n32 KB, 802.3x", ("E12c", "true")))]
    variants = [(name, r) for name, r in variants if r is not None]
    names = [name for name, _ in variants]
    colors = ["tab:red", "tab:orange", "tab:blue"][:len(variants)]
    axes.flat[4].bar(names, [r["throughput_gbps"] * 1e9 for _, r in variants], color=colors)
    style.bits_per_second(axes.flat[4].yaxis)
    axes.flat[4].set_ylabel("throughput of frame bytes")
    axes.flat[5].bar(names, [r["latency_mean_us"] * 1e-6 for _, r in variants], color=colors)
    style.log_seconds(axes.flat[5])
    axes.flat[5].set_ylabel("mean latency")
    for ax in list(axes.flat)[4:]:
        ax.set_title("the three variants", fontsize=9)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle("E12 backplane switch: the 802.3x threshold sweep at 1.5 MB, and the three variants", fontsize=11)
    fig.tight_layout()
    fig.savefig(path)


def print_table(args):
    return table_tool.table_with_plots("backplane-table", args.db, [(args.plot, plot)] if args.plot else [], collect,
                                 build_table, empty=f"'{args.db}' holds no backplane run that is done (platform = backplane)")


def main(argv=None):
    p = tool.Parser(prog="backplane-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--plot", metavar="PNG", help="also plot the threshold sweep at 1.5 MB")
    return tool.run("backplane-table", lambda: print_table(p.parse_args(argv)))
