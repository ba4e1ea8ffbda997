"""A run's figures from its arrays, with the cookbook's definitions
(db/queries/*.sql): the tests check that both give the same numbers.
Plain numpy, no plotting and no database."""
import math

import numpy as np

from fabricpy.rates import gbps  # the rate definitions are fabricpy.rates, shared with search/

# Nearest-rank percentiles: the ceil(a * n / b)-th smallest of n values.
PERCENTILES = (("p50", 1, 2), ("p99", 99, 100), ("p99.9", 999, 1000))


# What a report computes per run is bounded: at most MAX_WINDOWS windows, and
# at most MAX_WINDOW_CELLS windows times subflows (the report holds a few
# arrays of that shape at once, 8 bytes a cell, and draws a line per subflow).
MAX_WINDOWS = 100_000
MAX_WINDOW_CELLS = 10_000_000


def most_windows(subflows):
    """The most windows a report computes for a run of so many subflows."""
    return max(1, min(MAX_WINDOWS, MAX_WINDOW_CELLS // max(subflows, 1)))


def smallest_window_ps(sim_time_ps, subflows):
    """The shortest window that cuts a run into at most most_windows()
    windows (window_count() of it)."""
    return max(1, -(-sim_time_ps // most_windows(subflows)))


def nice_window_ps(sim_time_ps, target_windows=100):
    """A window of 1, 2 or 5 x 10^k ps giving about `target_windows`."""
    raw = max(1, sim_time_ps // target_windows)
    exponent = 10 ** int(math.floor(math.log10(raw)))
    for step in (1, 2, 5, 10):
        if step * exponent >= raw:
            return step * exponent
    return 10 * exponent


# A throughput window holds at least this many frame times: fewer, and one
# frame more or less in a window swings a subflow's rate by more than 5 %.
FRAMES_PER_WINDOW = 16


def default_window_ps(sim_time_ps):
    """About 1/100 of the run in 1-2-5 steps (floored_window_ps then keeps
    FRAMES_PER_WINDOW frames of the slowest subflow in it)."""
    return nice_window_ps(max(sim_time_ps, 1))


# A figure over time has a point with at least this many windows.
MIN_WINDOWS_OVER_TIME = 4


def slowest_series_floor_ps(deliveries, subflows, sim_time_ps, frames_per_window=FRAMES_PER_WINDOW):
    """`frames_per_window` mean inter-arrival times of the slowest subflow
    that received anything in the run: no shorter window keeps each drawn
    rate within about 1/frames_per_window of its frames' worth. (ps, that
    subflow's frames), or (None, 0) when nothing was received."""
    frames = np.bincount(deliveries.subflow, minlength=subflows)
    received = frames[frames > 0]
    if not len(received):
        return None, 0
    fewest = int(received.min())
    return math.ceil(frames_per_window * max(sim_time_ps, 1) / fewest), fewest


def floored_window_ps(window_ps, floor_ps):
    """`window_ps`, or the 1-2-5 step at or above `floor_ps` when it is shorter."""
    if floor_ps is None or window_ps >= floor_ps:
        return window_ps
    return nice_window_ps(floor_ps, 1)


def window_count(sim_time_ps, last_delivery_ps, window_ps):
    """Windows 0 .. last, as subflow_throughput.sql numbers them."""
    last = max(sim_time_ps - 1, last_delivery_ps, -1)
    return last // window_ps + 1 if last >= 0 else 0


def bytes_per_window(deliveries, subflows, window_ps, windows):
    """Received bytes, shape (subflows, windows)."""
    cells = deliveries.subflow.astype(np.int64) * windows + deliveries.t_ps // window_ps
    counts = np.bincount(cells, weights=deliveries.bytes, minlength=subflows * windows)
    return counts.reshape(subflows, windows)


def jain_index(shares):
    """Jain's fairness index of each column of `shares` (subflows x windows):
    (sum x)^2 / (n sum x^2); NaN where nothing was received."""
    shares = np.asarray(shares, dtype=float)
    if shares.ndim == 1:
        shares = shares[:, None]
    total = shares.sum(axis=0)
    squares = (shares * shares).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(squares > 0, total * total / (shares.shape[0] * squares), np.nan)


def mean_throughput(deliveries, subflows, from_ps, to_ps):
    """Per subflow (frames, bytes, Gb/s) received in [from_ps, to_ps)."""
    inside = (deliveries.t_ps >= from_ps) & (deliveries.t_ps < to_ps)
    frames = np.bincount(deliveries.subflow[inside], minlength=subflows)
    received = np.bincount(deliveries.subflow[inside], weights=deliveries.bytes[inside], minlength=subflows)
    return frames, received.astype(np.int64), gbps(received, to_ps - from_ps)


def latency_stats(groups, latency_ps):
    """Per distinct group value, in order: dict with n, p50, p99, p99.9,
    min, max and mean latency in ns."""
    if len(latency_ps) == 0:
        return {}
    order = np.lexsort((latency_ps, groups))
    g = groups[order]
    values = latency_ps[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    counts = np.diff(np.r_[starts, len(g)])
    sums = np.add.reduceat(values.astype(np.float64), starts)
    result = {}
    for key, start, n, total in zip(g[starts].tolist(), starts.tolist(), counts.tolist(), sums.tolist()):
        stats = {"n": n, "min": values[start] / 1000.0, "max": values[start + n - 1] / 1000.0,
                 "mean": total / n / 1000.0}
        for name, a, b in PERCENTILES:
            stats[name] = values[start + (a * n + b - 1) // b - 1] / 1000.0
        result[key] = stats
    return result


def overall_latency_stats(latency_ps):
    """latency_stats over every value as one group."""
    return latency_stats(np.zeros(len(latency_ps), dtype=np.int64), latency_ps)[0]


def cdf_points(latency_ps, max_points=2000):
    """(latency ns, cumulative fraction) for a step plot, thinned to at most
    `max_points` points but keeping the extremes."""
    values = np.sort(latency_ps) / 1000.0
    n = len(values)
    if n == 0:
        return values, values
    idx = np.unique(np.r_[np.linspace(0, n - 1, min(n, max_points)).astype(np.int64), n - 1])
    return values[idx], (idx + 1) / n


def ccdf_points(latency_ps, max_points=2000):
    """(latency ns, fraction of copies at or above it) for a step plot on a
    log axis: thinned to about `max_points` points, evenly in rank for the
    body and geometrically towards the largest, so that the tail (p99,
    p99.9, the maximum) keeps its detail."""
    values = np.sort(latency_ps) / 1000.0
    n = len(values)
    if n == 0:
        return values, values
    half = max(max_points // 2, 1)
    tail = n - np.unique(np.geomspace(1, n, min(n, half)).astype(np.int64))
    idx = np.unique(np.r_[np.linspace(0, n - 1, min(n, half)).astype(np.int64), tail, n - 1])
    return values[idx], (n - idx) / n


def paused_intervals(events, sim_time_ps):
    """From ('pause'|'go', t, entity, priority) in time order: per
    (entity, priority) the list of (start, end) STOP intervals."""
    open_since, intervals = {}, {}
    for kind, t, entity, priority in events:
        key = (entity, priority)
        if kind == "pause" and key not in open_since:
            open_since[key] = t
        elif kind == "go" and key in open_since:
            intervals.setdefault(key, []).append((open_since.pop(key), t))
    for key, start in open_since.items():
        intervals.setdefault(key, []).append((start, sim_time_ps))
    return intervals


def paused_count_over_time(intervals, window_ps, windows):
    """Mean number of stopped (port, priority) pairs in each window: each
    interval adds its share of its first and last window, and 1 to each
    window between (a running sum of steps, so that the cost does not grow
    with the number of windows an interval spans)."""
    spans = np.array([span for spans in intervals.values() for span in spans], dtype=np.int64).reshape(-1, 2)
    start, end = spans[:, 0], np.minimum(spans[:, 1], windows * window_ps)
    start, end = start[end > start], end[end > start]
    first, last = start // window_ps, (end - 1) // window_ps
    stopped = np.zeros(windows)
    one = first == last
    np.add.at(stopped, first[one], (end[one] - start[one]) / window_ps)
    first, last, start, end = first[~one], last[~one], start[~one], end[~one]
    np.add.at(stopped, first, ((first + 1) * window_ps - start) / window_ps)
    np.add.at(stopped, last, (end - last * window_ps) / window_ps)
    steps = np.zeros(windows + 1)
    np.add.at(steps, first + 1, 1)
    np.add.at(steps, last, -1)
    return stopped + np.cumsum(steps)[:windows]
