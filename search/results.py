"""A search's answer as a table: the best design (one objective) or the
designs of the front (several), each with every objective and constraint
figure, per combination of the robustness axes the mean over the seeds
with its 95 % interval, and the runs it took against the grid's."""
import json
import math

from fabricpy.markdown import table

from . import run_metrics
from .evaluation import combinations


def _cell(mean, half, decimals=3):
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "-"
    return f"{mean:.{decimals}f}" + (f" ± {half:.{decimals}f}" if half else "")


def trials(conn, sid):
    return conn.execute("SELECT trial, design, status, feasible, objectives FROM search_trials WHERE search_id = ? "
                        "ORDER BY trial", (sid,)).fetchall()


def chosen(declaration, rows):
    """The feasible complete trials that answer: the best (first of equals)
    for one objective, the non-dominated ones for several; one per design."""
    seen, feasible = set(), []
    for trial, design, status, ok, objectives in rows:
        if status == "complete" and ok and design not in seen:
            seen.add(design)
            feasible.append((trial, design, json.loads(objectives)))
    signs = [1 if o.direction == "minimize" else -1 for o in declaration.objectives]
    keyed = [(trial, design, [s * v for s, v in zip(signs, values)]) for trial, design, values in feasible]
    if len(signs) == 1:
        return [min(keyed, key=lambda t: (t[2][0], t[0]))] if keyed else []

    def dominated(a):
        return any(all(x <= y for x, y in zip(b[2], a[2])) and any(x < y for x, y in zip(b[2], a[2]))
                   for b in keyed)
    return sorted([k for k in keyed if not dominated(k)], key=lambda t: t[2])


def answer_table(conn, sid, declaration):
    """(Markdown table of the answer, how many designs are in it)."""
    picked = chosen(declaration, trials(conn, sid))
    names = [o.name for o in declaration.objectives] + [c.text() for c in declaration.constraints]
    columns = ["trial", "design"] + (["robustness"] if declaration.robust_axes() else []) + names
    rows = []
    for trial, design, _ in picked:
        for combination in combinations(declaration):
            label = "; ".join(f"{k}={v}" for k, v in combination)
            cells = [str(trial), design] + ([label] if declaration.robust_axes() else [])
            for name in [o.name for o in declaration.objectives] + [c.name for c in declaration.constraints]:
                row = conn.execute("SELECT mean, half_width FROM search_figures WHERE search_id = ? AND trial = ? "
                                   "AND combination = ? AND name = ?", (sid, trial, label, name)).fetchone()
                cells.append(_cell(*row) if row else "-")
            rows.append(cells)
    return table(columns, rows), len(picked)


def runs_of(conn, sid):
    (n,) = conn.execute("SELECT count(*) FROM search_sweeps ss JOIN sweep_runs sr ON sr.sweep_id = ss.sweep_id "
                        "WHERE ss.search_id = ?", (sid,)).fetchone()
    return n


def grid_runs(declaration, seeds):
    """The runs of the full grid of the search axes: every value of each (None
    when a range is real, or spans more than 1024 values: no grid one would run)."""
    n = seeds * len(combinations(declaration))
    for a in declaration.search_axes():
        if a.kind == "real" or (a.kind == "int" and a.high - a.low >= 1024):
            return None
        n *= len(a.choices) if a.kind == "choice" else int(a.high) - int(a.low) + 1
    return n


def ceilings(conn, sid, declaration):
    """A line for each constraint that no design can meet with this traffic:
    its bound beyond the figure's ceiling (run_metrics.ceiling)."""
    row = conn.execute("SELECT min(sr.run_id) FROM search_sweeps ss JOIN sweep_runs sr ON sr.sweep_id = ss.sweep_id "
                       "WHERE ss.search_id = ?", (sid,)).fetchone()
    lines = []
    for c in declaration.constraints if row and row[0] is not None else ():
        top = run_metrics.ceiling(conn, c.name, row[0])
        if top is not None and c.wants_high() and c.violation(top[0]) > 0:
            lines.append(f"no design can meet '{c.text()}': {c.name} is at most {top[0]:.3f} Gb/s for this traffic "
                         f"({top[1]}); {run_metrics.wire_variant_hint(c.name)}")
    return lines


def closest(conn, sid, declaration):
    """The complete trial whose worst constraint figure came nearest its bound, as text, or None."""
    best = None
    for trial, design in conn.execute("SELECT trial, design FROM search_trials WHERE search_id = ? AND status = "
                                      "'complete'", (sid,)):
        gaps = []
        for c in declaration.constraints:
            rows = conn.execute("SELECT mean, half_width FROM search_figures WHERE search_id = ? AND trial = ? AND "
                                "name = ?", (sid, trial, c.name)).fetchall()
            ends = [m - h if c.wants_high() else m + h for m, h in rows if m is not None]
            if ends:
                worst = min(ends) if c.wants_high() else max(ends)
                gaps.append((c.violation(worst), f"{c.name} {worst:.3f} at its interval's pessimistic end; "
                                                 f"{c.op} {c.bound:g} needed"))
        if gaps:
            gap, text = max(gaps)
            if best is None or gap < best[0]:
                best = (gap, f"{design} ({text})")
    return best[1] if best else None
