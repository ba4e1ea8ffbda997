"""ibft-table DB [--size BYTES] [--plot PREFIX]: the InfiniBand fat tree
study (E13; scripts/sweep E13) as Markdown tables from
db/queries/ibft_speedups.sql: for each case (sources, group size) the mean
completion time of each scheme (OpenSM by both root rules, ibft.opensm_root
first and spread) and the speedups at one message size, each with its 95 %
interval over the seeds, and the source document's expectations beside
them; with --plot, PREFIX-time.png (completion time against message size, a
panel per case) and PREFIX-speedup.png (speedups against the group size).
fabric-report adds the same section and plots to its report of a file that
holds ibft runs."""
import os

from analysis import table_tool
from fabricpy import tool
from analysis.cookbook import run_query
from fabricpy.confidence import mean_text
from fabricpy.markdown import table

SCHEMES = ("cyclic", "opensm", "opensm_spread", "unicast")
COLORS = {"cyclic": "tab:blue", "opensm": "tab:orange", "opensm_spread": "tab:green", "unicast": "tab:red"}
LABELS = {"cyclic": "cyclic", "opensm": "OpenSM, root first", "opensm_spread": "OpenSM, root spread",
          "unicast": "unicast"}
# The table's columns after sources and group: (header, figure, decimals).
FIGURES = (("cyclic (us)", "cyclic_us", 1), ("OpenSM first (us)", "opensm_us", 1),
           ("OpenSM spread (us)", "opensm_spread_us", 1), ("unicast (us)", "unicast_us", 1),
           ("OpenSM first / cyclic", "opensm_over_cyclic", 2), ("OpenSM spread / cyclic", "opensm_spread_over_cyclic", 2),
           ("unicast / cyclic", "unicast_over_cyclic", 2), ("unicast / OpenSM first", "unicast_over_opensm", 2),
           ("unicast / OpenSM spread", "unicast_over_opensm_spread", 2))


def collect(conn):
    columns, rows = run_query(conn, "ibft_speedups")
    return [dict(zip(columns, row)) for row in rows]


def cases(rows):
    return sorted({(r["sources"], r["group_size"]) for r in rows})


def expectation(sources, group, nodes):
    if sources == 1:
        return "cyclic = OpenSM; both beat unicast"
    if group >= nodes - 1:
        return "cyclic about OpenSM; both beat unicast"
    return "cyclic faster than OpenSM (small groups); both beat unicast"


def build_table(rows, size):
    at = [r for r in rows if r["message_bytes"] == size]
    if not at:
        raise tool.ReportError(f"no ibft run with messages of {size} B in the database")
    nodes = max(r["sources"] for r in rows)
    header = ["sources", "group"] + [h for h, _, _ in FIGURES] + ["seeds", "the document expects"]
    body = [[r["sources"], r["group_size"]] +
            [mean_text(r[f], r[f + "_sd"], r["seeds"], decimals) for _, f, decimals in FIGURES] +
            [r["seeds"], expectation(r["sources"], r["group_size"], nodes)]
            for r in sorted(at, key=lambda r: (r["sources"], r["group_size"]))]
    return (f"Messages of {size} B, mean over the seeds with its 95 % interval (Student's t; a ratio is the mean "
            "of each seed's ratio):\n\n" + table(header, body))


def has_times(rows):
    """Whether a case has runs of two or more message sizes (a line to draw)."""
    sizes = {}
    for r in rows:
        sizes.setdefault((r["sources"], r["group_size"]), set()).add(r["message_bytes"])
    return any(len(v) >= 2 for v in sizes.values())


def plot_times(rows, path):
    from matplotlib.ticker import FuncFormatter
    from fabricpy import style
    plt = style.pyplot()
    all_sources = sorted({s for s, _ in cases(rows)})
    all_groups = sorted({g for _, g in cases(rows)})
    width = max(6.4, 3.4 * len(all_groups))
    fig, axes = plt.subplots(len(all_sources), len(all_groups), figsize=(width, 2.8 * len(all_sources) + 1.2),
                             squeeze=False, sharex=True, sharey=True)
    drawn = set()
    for i, s in enumerate(all_sources):
        for j, g in enumerate(all_groups):
            ax = axes[i][j]
            mine = sorted((r for r in rows if r["sources"] == s and r["group_size"] == g),
                          key=lambda r: r["message_bytes"])
            for scheme in SCHEMES:
                points = [(r["message_bytes"], r[f"{scheme}_us"] * 1e-6) for r in mine if r[f"{scheme}_us"] is not None]
                if points:
                    drawn.add(scheme)
                    ax.plot(*zip(*points), marker=".", color=COLORS[scheme], label=LABELS[scheme],
                            linestyle="--" if scheme == "opensm_spread" else "-")  # cyclic shows under it
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _size_text(v)))
            style.log_seconds(ax)
            ax.set_title(f"{s} sources, groups of {g}", fontsize=9)
            if i == len(all_sources) - 1:
                ax.set_xlabel("message")
            if j == 0:
                ax.set_ylabel("completion time")
    _legend_below(fig, [plt.Line2D([], [], color=COLORS[k], marker=".", label=LABELS[k],
                                   linestyle="--" if k == "opensm_spread" else "-") for k in SCHEMES if k in drawn])
    fig.suptitle("E13 IBFT(8, 3): completion time against message size, per case", fontsize=11)
    fig.tight_layout(rect=(0, 0.6 / fig.get_figheight(), 1, 0.96))
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _legend_below(fig, handles):
    """The legend under the panels, where it covers no data."""
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)


def _size_text(v):
    """A power-of-two size as fabricsim writes it: 64 B, 4 KB, 128 KB (1024-based)."""
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if v >= scale:
            return f"{v / scale:g} {unit}"
    return f"{v:g} B"


def plot_speedups(rows, size, path):
    from fabricpy import style as figure_style
    plt = figure_style.pyplot()
    at = [r for r in rows if r["message_bytes"] == size]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.8))
    # OpenSM by each root rule: solid first, dashed spread.
    panels = ((("opensm_over_cyclic", "-"), ("opensm_spread_over_cyclic", "--")),
              (("unicast_over_cyclic", "-"),),
              (("unicast_over_opensm", "-"), ("unicast_over_opensm_spread", "--")))
    labels = ("OpenSM time / cyclic time", "unicast time / cyclic time", "unicast time / OpenSM time")
    values = [r[m] for r in at for metrics in panels for m, _ in metrics if r[m]]
    # One scale for every panel: log where the ratios span a decade (one source's unicast runs 100 times longer).
    log = figure_style.spans_a_decade(values)
    handles, spread = {}, False
    for ax, metrics, label in zip(axes, panels, labels):
        for s, color in zip(sorted({r["sources"] for r in at}), ("tab:blue", "tab:orange", "tab:green", "tab:red")):
            for metric, style in metrics:
                points = sorted((r["group_size"], r[metric]) for r in at if r["sources"] == s and r[metric] is not None)
                if points:
                    line, = ax.plot(*zip(*points), marker="o", linestyle=style, color=color)
                    if style == "-":
                        handles.setdefault(s, line)
                    spread = spread or style == "--"
        ax.axhline(1, color="grey", linewidth=0.8)
        if log:
            figure_style.log_numbers(ax)  # 1, 2, 5, 10, ...: a panel of ratios from 1 to 4 reads too
        ax.set_xlabel("group size (receivers)")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    legend = [plt.Line2D([], [], color=h.get_color(), marker="o", label=f"{s} sources") for s, h in handles.items()]
    if spread:
        legend.append(plt.Line2D([], [], linestyle="--", color="grey", label="OpenSM, root spread"))
    _legend_below(fig, legend)
    fig.suptitle(f"E13 IBFT(8, 3): speedups against group size, {_size_text(size)} messages (mean over seeds)",
                 fontsize=11)
    fig.tight_layout(rect=(0, 0.6 / fig.get_figheight(), 1, 0.96))
    fig.savefig(path, dpi=100)
    plt.close(fig)


def section(conn, out_dir, size=4096):
    """fabric-report's section for a file with ibft runs, or None."""
    rows = collect(conn)
    if not rows:
        return None
    if size not in {r["message_bytes"] for r in rows}:
        size = max(r["message_bytes"] for r in rows)
    text = ("## InfiniBand fat tree (E13): completion times and speedups\n\n"
            "Every ibft run of the file, as `db/queries/ibft_speedups.sql`. " + build_table(rows, size) + "\n")
    if has_times(rows):
        plot_times(rows, os.path.join(out_dir, "ibft_time.png"))
        text += "![completion time against message size](ibft_time.png)\n\n"
    else:
        text += f"No figure of completion time against message size: {NO_TIMES}.\n\n"
    if has_speedups(rows, size):
        plot_speedups(rows, size, os.path.join(out_dir, "ibft_speedup.png"))
        return text + "![speedups against group size](ibft_speedup.png)\n"
    return text + f"No speedup figure: {no_speedups(rows, size)}.\n"


NO_TIMES = "no case has runs of two message sizes (the table gives each scheme's time)"


def no_speedups(rows, size):
    """Why the rows draw no speedup figure at `size`."""
    schemes = [s for s in SCHEMES if any(r[f"{s}_us"] is not None for r in rows)]
    groups = sorted({r["group_size"] for r in rows if r["message_bytes"] == size})
    if any(r[f] is not None for r in rows if r["message_bytes"] == size for _, f, _ in FIGURES if "_over_" in f):
        return (f"speedups against group size need runs of two or more group sizes at {size} B, and this file has "
                f"groups of {', '.join(map(str, groups))} only (the table gives the speedups)")
    return (f"a speedup needs runs of two schemes in the same case at {size} B, and this file has "
            f"{' and '.join(LABELS[s] for s in schemes) or 'no completed run'}")


def has_speedups(rows, size):
    """Whether a speedup has two or more group sizes at `size` to draw against."""
    at = [r for r in rows if r["message_bytes"] == size]
    with_ratio = {r["group_size"] for r in at for _, f, _ in FIGURES if "_over_" in f and r[f] is not None}
    return len(with_ratio) >= 2


def print_table(args):
    plots = []
    if args.plot:
        plots = [(args.plot + "-time.png", plot_times, lambda rows: None if has_times(rows) else NO_TIMES),
                 (args.plot + "-speedup.png", lambda rows, path: plot_speedups(rows, args.size, path),
                  lambda rows: None if has_speedups(rows, args.size) else no_speedups(rows, args.size))]
    return table_tool.table_with_plots("ibft-table", args.db, plots, collect, lambda rows: build_table(rows, args.size),
                                 empty=f"'{args.db}' holds no ibft run that is done (platform = ibft)")


def main(argv=None):
    p = tool.Parser(prog="ibft-table", description=__doc__.split("\n\n")[0])
    p.add_argument("db")
    p.add_argument("--size", type=int, default=4096, help="the message size of the table and speedup plot (B)")
    p.add_argument("--plot", metavar="PREFIX", help="also write PREFIX-time.png and PREFIX-speedup.png")
    return tool.run("ibft-table", lambda: print_table(p.parse_args(argv)))
