"""A search's figures: each objective against the trials (met or not the
constraints, and the best so far), and for two objectives the front among
every trial, beside the database's other runs with both figures (a grid
sweep of the same study, say) as a reference."""
import json
import textwrap

from fabricpy import style

from . import run_metrics


def _label(ax_axis, set_label, name, direction, unit):
    """An axis of a figure in its unit: bytes in engineering units (160 kB), others named with theirs."""
    set_label(f"{name} ({direction})" + (f", {unit}" if unit and unit != "B" else ""), wrap=True)
    if unit == "B":
        style.bytes_(ax_axis)


def search_title(conn, sid, declaration):
    """'search 1 of perm640: minimize spine.buffer_packets subject to min_subflow_wire_gbps >= 99 from 20 us'."""
    row = conn.execute("SELECT study FROM searches WHERE search_id = ?", (sid,)).fetchone()
    goals = ", ".join(f"{o.direction} {o.name}" for o in declaration.objectives)
    constraints = " and ".join(c.text() for c in declaration.constraints)
    start = f", figures from {declaration.warmup_ps / 1e6:g} us" if declaration.warmup_ps else ""
    return (f"search {sid} of {row[0] if row else '?'}: {goals}" + (f" subject to {constraints}" if constraints else "")
            + start)


def _trials(conn, sid):
    return [(t, json.loads(o), bool(f)) for t, o, f in conn.execute(
        "SELECT trial, objectives, feasible FROM search_trials WHERE search_id = ? AND status = 'complete' "
        "ORDER BY trial", (sid,))]


def history_plot(conn, sid, declaration, path, units):
    plt = style.pyplot()
    rows = _trials(conn, sid)
    fig, axes = plt.subplots(len(declaration.objectives), 1, figsize=(7.5, 3.2 * len(declaration.objectives) + 0.6),
                             squeeze=False)
    for i, (ax, o) in enumerate(zip(axes[:, 0], declaration.objectives)):
        met = [(t, v[i]) for t, v, ok in rows if ok]
        failed = [(t, v[i]) for t, v, ok in rows if not ok]
        if failed:
            ax.scatter(*zip(*failed), marker="x", color="tab:red", label="constraints not met")
        if met:
            ax.scatter(*zip(*met), marker="o", color="tab:blue", label="constraints met")
            if len(declaration.objectives) == 1:
                best, line = None, []
                for t, v in met:
                    best = v if best is None else (min(best, v) if o.direction == "minimize" else max(best, v))
                    line.append((t, best))
                ax.step(*zip(*line), where="post", color="tab:blue", alpha=0.5, label="best so far")
        ax.set_xlabel("trial")
        _label(ax.yaxis, ax.set_ylabel, o.name, o.direction, units.get(o.name))
        values = [v[i] for _, v, _ in rows if v[i] is not None]
        if style.spans_a_decade(values):
            style.log_numbers(ax, max(values) / min(values))
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.suptitle("\n".join(textwrap.wrap(search_title(conn, sid, declaration) + ": objectives against the trials",
                                         90)), fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _figure_of_run(conn, name, run_id, sim_time_ps, warmup):
    try:
        return run_metrics.value(conn, name, run_id, sim_time_ps, warmup)
    except Exception:  # a run of another kind (no deliveries, another platform)
        return None


def front_plot(conn, sid, declaration, front, path, units):
    """front: the answer's rows (trial, design, signed objectives), from results.chosen."""
    plt = style.pyplot()
    (a, b) = declaration.objectives[:2]
    rows = _trials(conn, sid)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    mine = set()
    for (run,) in conn.execute("SELECT sr.run_id FROM search_sweeps ss JOIN sweep_runs sr ON sr.sweep_id = "
                               "ss.sweep_id WHERE ss.search_id = ?", (sid,)):
        mine.add(run)
    others = []
    for run_id, sim_time_ps, study in conn.execute("SELECT run_id, sim_time_ps, study FROM runs WHERE status = 'done'"):
        if run_id in mine:
            continue
        x = _figure_of_run(conn, a.name, run_id, sim_time_ps, declaration.warmup_ps)
        y = _figure_of_run(conn, b.name, run_id, sim_time_ps, declaration.warmup_ps)
        if x is not None and y is not None:
            others.append((x, y))
    if others:
        ax.scatter(*zip(*others), marker="s", color="tab:gray", alpha=0.7, label="the database's other runs")
    ax.scatter([v[0] for _, v, ok in rows if ok], [v[1] for _, v, ok in rows if ok], marker="o",
               facecolors="none", edgecolors="tab:blue", label="trials (constraints met)")
    by_trial = {t: v for t, v, _ in rows}
    points = sorted(by_trial[t] for t, _, _ in front)
    if points:
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", color="tab:blue", label="the front")
    for axis, objective in ((ax.set_xscale, a), (ax.set_yscale, b)):  # the scale first: it resets the formatter
        varied = next((v for v in declaration.search_axes() if v.key == objective.name), None)
        if varied is not None and varied.log:
            axis("log")
    _label(ax.xaxis, ax.set_xlabel, a.name, a.direction, units.get(a.name))
    _label(ax.yaxis, ax.set_ylabel, b.name, b.direction, units.get(b.name))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title("\n".join(textwrap.wrap(search_title(conn, sid, declaration) + f": the front of {a.name} and "
                                         f"{b.name}", 60)), fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
