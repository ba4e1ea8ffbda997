"""The tools' option values, read and checked before any work: durations,
run ids and output paths. Each problem is a ReportError that names the
option and the value as the user typed them."""
import difflib
import os
import re
import tempfile
from decimal import Decimal

from fabricpy.errors import ReportError

_UNITS = (("s", 10**12), ("ms", 10**9), ("us", 10**6), ("ns", 10**3), ("ps", 1))
_SCALE = dict(_UNITS)
_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ps|ns|us|ms|s)?\s*$")
# fabricsim's longest run (sim.time); longer values also overflow SQLite's integers.
LONGEST_PS = 10**16
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def parse_duration_ps(text, bare_ps=True):
    """Picoseconds in '10us', '0.5ms' or (if bare_ps) '2000000'; None if
    `text` is not such a duration."""
    m = _DURATION.match(text)
    if not m or not (m.group(2) or bare_ps):
        return None
    return int(round(Decimal(m.group(1)) * _SCALE[m.group(2) or "ps"]))


def parse_rate_gbps(text):
    """A rate key's value in Gb/s ('100', '100Gbps', '10G'), or None for
    another notation (Mb/s) or no value."""
    try:
        return float(str(text).strip().lower().removesuffix("gbps").removesuffix("g").strip())
    except (TypeError, ValueError):
        return None


def duration_ps(option, text, above_zero=False, bare_ps=True):
    """A duration option's value in picoseconds, or a ReportError."""
    ps = parse_duration_ps(text, bare_ps)
    example = "10us, 0.5ms or 2000000 (ps)" if bare_ps else "10us or 0.5ms"
    if ps is None:
        raise ReportError(f"{option} '{text}': expected a duration such as {example}"
                          + (", above zero" if above_zero else ""))
    if above_zero and ps == 0:
        raise ReportError(f"{option} {text}: must be above zero (at least 1ps)")
    if ps > LONGEST_PS:
        raise ReportError(f"{option} {text}: longer than any run can be (at most {as_option(LONGEST_PS)})")
    return ps


def as_option(ps, round_up_to_digits=None):
    """A duration as the options accept it ('10ns', '412.5us'); rounded up
    to so many significant digits if asked (a bound stays a bound)."""
    if round_up_to_digits and ps >= 10**round_up_to_digits:
        quantum = 10 ** (len(str(ps)) - round_up_to_digits)
        ps = -(-ps // quantum) * quantum
    unit, scale = next(((u, s) for u, s in _UNITS if ps >= s), _UNITS[-1])
    return f"{(Decimal(ps) / scale).normalize():f}{unit}"


def run_id(text):
    """argparse type of --run: a run id, a whole number from 1."""
    try:
        value = int(text)
    except ValueError:
        raise ReportError(f"--run '{text}': expected a run id, a whole number such as 1") from None
    if value < 1:
        raise ReportError(f"--run {text}: run ids are whole numbers from 1")
    return value


def close_names(word, names, n=3):
    """The names of `names` nearest to `word`, a typo of one of them, best
    first (at most n): the one rule of the tools' "did you mean". A name
    shares at least three quarters of its letters with the word ('ring' for
    'rign'; not 'spine.ports' for 'spine.bufer_packets')."""
    return difflib.get_close_matches(word, list(names), n=n, cutoff=0.75)


def did_you_mean(word, names, n=3):
    """'; did you mean a, b?' naming the names near `word`, or ''."""
    close = close_names(word, names, n)
    return f"; did you mean {', '.join(close)}?" if close else ""


def config_key(option, key, run_id, config):
    """`key` if the run's configuration has it, else a ReportError naming
    the option and the closest keys."""
    if key not in config:
        raise ReportError(f"{option} {key}: run {run_id} has no configuration key '{key}'{did_you_mean(key, config)} "
                          "(keys as in fabricsim --list-params)")
    return key


def _writable(option, path, folder):
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise ReportError(f"{option} {path}: cannot write in '{folder}' ({e.strerror})") from None


def _parent(option, path):
    if not path.strip():
        raise ReportError(f"{option} '{path}': expected a path")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ReportError(f"{option} {path}: the folder '{parent}' does not exist" if not os.path.lexists(parent)
                          else f"{option} {path}: '{parent}' is not a folder")
    return parent


def output_folder(option, path):
    """Checks that `path` is, or can be made, a folder to write into; makes
    nothing (the caller makes it once every other check has passed). Its
    parent must exist: a mistyped parent is more likely than a wish for a
    new tree."""
    if os.path.isdir(path):
        return _writable(option, path, path)
    if os.path.lexists(path):
        raise ReportError(f"{option} {path}: exists and is not a folder; give a folder for the report's files")
    _writable(option, path, _parent(option, path))


def output_file(option, path):
    """Checks that a plot can be written to `path` (its parent folder exists
    and is writable, its suffix names a format)."""
    if os.path.isdir(path):
        raise ReportError(f"{option} {path}: is a folder; give a file name such as plot.png")
    if os.path.splitext(path)[1].lower() not in PLOT_SUFFIXES:
        raise ReportError(f"{option} {path}: the file name must end in " + ", ".join(PLOT_SUFFIXES[:-1])
                          + f" or {PLOT_SUFFIXES[-1]}")
    _writable(option, path, _parent(option, path))
