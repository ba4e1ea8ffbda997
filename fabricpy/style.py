"""The figures' one style (fabric.mplstyle) and their units: every plot of
fabric-report and the table tools gets pyplot from here, and labels its
axes in engineering units (1.5 µs, 25 Gb/s, 160 kB) with the formatters
below, whatever the scale of the numbers."""
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import EngFormatter, FuncFormatter, LogLocator, NullFormatter  # noqa: E402

STYLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fabric.mplstyle")
plt.style.use(STYLE)
# Below this many points a line shows its points as markers.
FEW_POINTS = 24


def pyplot():
    return plt


def seconds(axis):
    """Values in seconds, labelled 500 ns, 1.5 µs, 2 ms."""
    axis.set_major_formatter(EngFormatter(unit="s", sep=" "))


def log_seconds(ax, which="y"):
    """A log axis of values in seconds, ticks at 1, 2 and 5 of each decade
    (a latency sweep often spans less than one decade), at each decade only
    where the data drawn so far span more than three."""
    (ax.set_yscale if which == "y" else ax.set_xscale)("log")
    axis = ax.yaxis if which == "y" else ax.xaxis
    low, high = ax.get_ylim() if which == "y" else ax.get_xlim()
    wide = low > 0 and high / low > 1e3
    axis.set_major_locator(LogLocator(base=10, subs=(1.0,) if wide else (1.0, 2.0, 5.0)))
    axis.set_major_formatter(EngFormatter(unit="s", sep=" "))
    axis.set_minor_formatter(NullFormatter())


def spans_a_decade(values):
    """Whether positive values span a factor of 10 or more: a log axis reads them better."""
    values = [v for v in values if v is not None]
    return bool(values) and min(values) > 0 and max(values) / min(values) >= 10


def log_numbers(ax, widest=None):
    """A log y axis of plain numbers (1, 2, 5, 10, 20 ...; each decade only
    where `widest`, the span of the data, is more than three decades)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0,) if widest and widest > 1e3 else (1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def bits_per_second(axis):
    """Values in bit/s, labelled 25 Gb/s."""
    axis.set_major_formatter(EngFormatter(unit="b/s", sep=" "))


def bytes_(axis):
    """Values in bytes, labelled 160 kB."""
    axis.set_major_formatter(EngFormatter(unit="B", sep=" "))


def marker_for(points):
    """A marker for a line of few points (so a lone point shows), else none."""
    return "o" if points < FEW_POINTS else None


def powers_of_two(values):
    """Whether numeric values are all powers of two (>= 1), and more than two
    of them: a sweep to draw on a log2 axis."""
    values = [v for v in values if v is not None]
    return len(set(values)) > 2 and all(v >= 1 and math.log2(v).is_integer() for v in values)


def log2_axis(axis_of_ax, ax, which="x"):
    """A log2 axis labelled with the plain values (16, 32, 64)."""
    (ax.set_xscale if which == "x" else ax.set_yscale)("log", base=2)
    axis_of_ax.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
