"""Whether a drawn figure is readable: no text (titles, labels, ticks,
legends, annotations) reaches past the figure's edge, and no legend lies
over the data of its panel. layout_faults(fig) names each fault in words;
the tests run every figure the report and the table tools draw through it
(tests/report/figure_layout_tests.py). Plain matplotlib, no database."""
import numpy as np

# Display pixels a text may reach past the edge (antialiasing), and points
# a line is sampled at per segment when testing it against a legend.
EDGE_SLACK_PX = 1.0
SAMPLES_PER_SEGMENT = 8
MOST_POINTS_SAMPLED = 20_000


def layout_faults(fig):
    """Every fault of the figure as one line each; [] for a clean figure."""
    fig.canvas.draw()  # lays the figure out as savefig does
    renderer = fig.canvas.get_renderer()
    faults = [f"clipped: {_name(text)}" for text in _texts(fig) if _outside(text, fig, renderer)]
    for legend, axes in _legends(fig):
        box = legend.get_window_extent(renderer)
        for ax in axes:
            covered = _covered_lines(ax, legend, box)
            if covered:
                faults.append(f"legend '{_legend_title(legend)}' covers {', '.join(covered)} in panel "
                              f"'{ax.get_title() or ax.get_ylabel()}'")
    return faults


def _texts(fig):
    """The figure's visible, non-empty texts."""
    texts = list(fig.texts) + ([fig._suptitle] if fig._suptitle is not None and fig._suptitle not in fig.texts else [])
    for legend in fig.legends:
        texts += legend.get_texts()
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label] + list(ax.texts)
        texts += [t for t in ax.get_xticklabels() + ax.get_yticklabels() if _tick_shown(ax, t)]
        if ax.get_legend() is not None:
            texts += ax.get_legend().get_texts()
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


def _tick_shown(ax, label):
    """Whether a tick label stands at a tick inside its axis' range (matplotlib keeps others hidden or unused)."""
    x, y = label.get_position()
    low, high = sorted(ax.get_xlim() if label in ax.get_xticklabels() else ax.get_ylim())
    at = x if label in ax.get_xticklabels() else y
    return low - 1e-9 * abs(high - low) <= at <= high + 1e-9 * abs(high - low)


def _outside(text, fig, renderer):
    box = text.get_window_extent(renderer)
    edge = fig.bbox
    return (box.x0 < edge.x0 - EDGE_SLACK_PX or box.y0 < edge.y0 - EDGE_SLACK_PX or
            box.x1 > edge.x1 + EDGE_SLACK_PX or box.y1 > edge.y1 + EDGE_SLACK_PX)


def _name(text):
    words = " ".join(text.get_text().split())
    return f"'{words[:60]}{'...' if len(words) > 60 else ''}'"


def _legends(fig):
    """(legend, the panels it may cover): a panel's own legend covers that
    panel; a figure legend covers every panel."""
    found = [(ax.get_legend(), [ax]) for ax in fig.axes if ax.get_visible() and ax.get_legend() is not None]
    return found + [(legend, [ax for ax in fig.axes if ax.get_visible()]) for legend in fig.legends]


def _legend_title(legend):
    texts = [t.get_text() for t in legend.get_texts()]
    return texts[0] if texts else "legend"


def _covered_lines(ax, legend, box):
    """The labels of the panel's lines (and markers) with a drawn point inside the legend's box."""
    covered = []
    for line in ax.get_lines():
        if not line.get_visible() or line in legend.get_lines():
            continue
        points = _sampled(line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float)),
                          joined=line.get_linestyle() not in ("None", "none", "", " "))
        inside = ((points[:, 0] > box.x0) & (points[:, 0] < box.x1) & (points[:, 1] > box.y0) &
                  (points[:, 1] < box.y1) & _within_panel(ax, points))
        if inside.any():
            covered.append(f"'{line.get_label()}'" if not line.get_label().startswith("_") else "a line")
    return covered


def _within_panel(ax, points):
    """Points drawn inside the panel (clipped points are not drawn)."""
    box = ax.get_window_extent()
    return (points[:, 0] >= box.x0) & (points[:, 0] <= box.x1) & (points[:, 1] >= box.y0) & (points[:, 1] <= box.y1)


def _sampled(points, joined):
    """A line's points in display pixels, with points between them where the line is drawn joined."""
    if joined and 2 <= len(points) and len(points) * SAMPLES_PER_SEGMENT <= MOST_POINTS_SAMPLED:
        steps = np.linspace(0, 1, SAMPLES_PER_SEGMENT, endpoint=False)[:, None, None]
        points = np.vstack([(points[:-1] + steps * (points[1:] - points[:-1])).reshape(-1, 2), points[-1:]])
    return points[np.isfinite(points).all(axis=1)]  # a gap (NaN) is not drawn, nor a segment that touches it
