"""rtl-profile FABRICSIM [fabricsim options]: where an RTL block spends its
time in a run (issue 53). It runs fabricsim under `perf record` (software
sampling, -e cpu-clock), reads the share of the run's CPU spent in each
verilated variant's functions, and divides it by the calls and clock edges
the run's summary counts (RTL sync CAMs / packet caches: commands, queries,
edges), so that a block's author sees its cost per call and per edge, and
which of Verilator's parts it goes to:

- `ico`: logic that reads the block's inputs combinationally, computed again
  at every evaluation (every query and every edge): a search or a compare
  kept continuous;
- `nba`: the clocked processes, at each rising edge;
- `eval` and the rest: Verilator's scheduling of the two.

A block whose `ico` dominates gains most from moving work into the branches
of its clocked process that need it (rtl/README.md, "Writing a block that
simulates fast"). Needs `perf` (Debian's linux-perf). Exit status 0, 2 on
bad input (one line), 1 when perf or the run fails."""
import os
import re
import subprocess
import sys
import tempfile

from fabricpy import tool
from fabricpy.errors import ReportError

# perf report --sort symbol: "   7.28%  [.] Vfabric_packet_cache_16___024root___ico_sequent__TOP__0"
_SAMPLE = re.compile(r"^\s*([0-9.]+)%\s+\S+\s+(V\w+?)___024root___(\w+)")
# fabricsim's summary: "  RTL sync CAMs: 13540 commands and 7688 queries (...), 13600 clock edges"
_ACTIVITY = re.compile(r"RTL (sync CAMs|packet caches): (\d+) commands and (\d+) queries .*?, (\d+) clock edges")
_WALL = re.compile(r"simulated .* in ([0-9.]+) s wall")
_BLOCK_OF_VARIANT = (("sync_cam", "sync CAMs"), ("packet_cache", "packet caches"))


def part(function):
    """Verilator's part a generated function belongs to."""
    if function.startswith("ico_"):
        return "ico"
    if function.startswith("nba_"):
        return "nba"
    return "eval"


def shares(report_text):
    """{variant: {part: percent of the run's samples}} from perf report's text."""
    out = {}
    for line in report_text.splitlines():
        m = _SAMPLE.match(line)
        if m:
            by_part = out.setdefault(m.group(2), {"ico": 0.0, "nba": 0.0, "eval": 0.0})
            by_part[part(m.group(3))] += float(m.group(1))
    return out


def activity(summary_text):
    """({'sync CAMs': (commands, queries, edges), ...}, wall seconds) from fabricsim's summary."""
    counts = {m.group(1): tuple(int(m.group(i)) for i in (2, 3, 4)) for m in _ACTIVITY.finditer(summary_text)}
    wall = _WALL.search(summary_text)
    return counts, (float(wall.group(1)) if wall else None)


def table(by_variant, counts, wall):
    """The Markdown table: per variant, its share of the run and its cost per call and per edge."""
    rows = ["| variant | share of the run | ico / nba / eval | calls | edges | ns per call | ns per edge |",
            "|---|---|---|---|---|---|---|"]
    for variant, parts in sorted(by_variant.items(), key=lambda kv: -sum(kv[1].values())):
        share = sum(parts.values())
        block = next((name for key, name in _BLOCK_OF_VARIANT if key in variant), None)
        commands, queries, edges = counts.get(block, (0, 0, 0))
        calls = commands + queries
        seconds = wall * share / 100 if wall else None
        per_call = f"{seconds / calls * 1e9:.0f}" if seconds and calls else "-"
        per_edge = f"{seconds / edges * 1e9:.0f}" if seconds and edges else "-"
        rows.append(f"| {variant} | {share:.1f} % | {parts['ico']:.1f} / {parts['nba']:.1f} / {parts['eval']:.1f} % "
                    f"| {calls} | {edges} | {per_call} | {per_edge} |")
    return "\n".join(rows)


def profile(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    binary = tool.fabricsim_binary(argv[0])
    with tempfile.TemporaryDirectory(prefix="rtl_profile_") as scratch:
        data = os.path.join(scratch, "perf.data")
        command = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", data, "--", binary, *argv[1:]]
        if "--db" not in argv:
            command += ["--db", os.path.join(scratch, "profile.db")]
        try:
            run = subprocess.run(command, capture_output=True, text=True)
        except FileNotFoundError:
            raise ReportError("perf: not found; install Debian's linux-perf") from None
        if run.returncode != 0:
            print(run.stderr.strip()[-2000:], file=sys.stderr)
            return 1
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio",
                                 "-g", "none"], capture_output=True, text=True)
    counts, wall = activity(run.stdout + run.stderr)
    by_variant = shares(report.stdout)
    if not by_variant:
        raise ReportError("no RTL block ran in this run: give --set leaf.sync.impl=rtl or leaf.cache.impl=rtl")
    print(f"{' '.join(argv[1:])}: {wall} s wall")
    print(table(by_variant, counts, wall))
    return 0


def main(argv=None):
    return tool.run("rtl-profile", lambda: profile(sys.argv[1:] if argv is None else argv))
