"""whatif-campaign BINARY [--configs N] [--seed S] [--jobs J] [--report FILE]
[--keep DIR] [--platforms P,...]: random what-ifs that must obey the physics.

Draws N cases from declared ranges of the keys an architect changes (cable
lengths, spines, leaves, ports, buffers and windows, cell size, frame size,
traffic pattern and load, lossy or lossless, multicast with the packet
cache's size, mirrors and lag, VOQ sync and the trees' leaf order, link
errors; on the other platforms their own keys), runs each briefly and checks:

- every run: exit status 0 and "invariants: N checked, 0 broken" (the
  model's own invariants, model/invariants/), every copy accounted for
  when the run drained;
- cable: a longer leaf-spine cable never lowers the minimum latency of a
  remote copy at light load, and raises it by at least the extra flight
  (two spans), less the two leaves' clock phase (a cycle each) and the
  fastest copy's phase against its grant cycle (a frame spacing);
- load: lowering the offered load never raises the drops;
- capacity: more spines or bigger buffers never lower a lossless run's
  throughput beyond the seeds' interval (3 seeds each);
- job: a closed-loop job (random collective, algorithm, ranks and size)
  on a lossless fabric finishes, the run ended by it, its busbw never
  above one rank's link times the frame efficiency;
- E11: the zero-load latency of a local copy equals the hand formula at any
  cable length, cell size and frame size, and a remote copy's moves by at
  least the data's two spans of extra flight and at most six (request, grant
  and data each cross two; a frame still arriving when its grant is back
  hides the request's and grant's);
- warnings: a pre-run warning that states a bound ("at most X Gb/s") is not
  beaten by the run.

A failure prints the case's configuration and one command that reproduces
it. Exit status 0 when every case holds, 1 when one fails, 2 for bad input."""
import math
import os
import random
import re
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from fabricpy import tool
from fabricpy.confidence import half_width, mean_sd
from fabricpy.markdown import table
from fabricpy.option_values import did_you_mean
from fabricpy.errors import ReportError

NS_PER_M = 5.0          # topology.propagation_ns_per_m's default
UPLINK_GBPS = 25.0      # topology.uplink_gbps's default
SIM_TIME_US = 40        # each fabric run; its sources stop at half of it
STOP_US = 20
MEASURE_FROM_US = 5     # throughput over [5, 20) us


# --- Drawing cases --------------------------------------------------------

def draw_fabric_base(rng):
    """Keys of a small random fabric and its traffic (a what-if off perm640)."""
    leaves = rng.choice([2, 3, 4, 6, 8])
    ports = rng.choice([2, 3, 4, 5, 8])
    keys = {
        "topology.racks": 1,
        "topology.leaves": leaves,
        "topology.user_ports_per_leaf": ports,
        "topology.spines": rng.choice([4, 8, 16, 32]),
        "topology.leaf_spine_cable_m": round(math.exp(rng.uniform(math.log(1), math.log(500))), 1),
        "topology.cna_cable_m": rng.choice([1, 2, 10, 50]),
        "leaf.packet_bytes": rng.choice([128, 256, 512]),
        "traffic.frame_size": rng.choice(["64", "256", "1522", "9022", "uniform:64:1522"]),
        "traffic.load_gbps": rng.choice([20, 40, 60, 80, 95, 100]),
        "traffic.stop": f"{STOP_US}us",
        "spine.buffer_packets": rng.choice(["auto", "auto", 4, 8, 16, 64]),
    }
    users = leaves * ports
    pattern = rng.choice(["permutation", "permutation", "uniform", "fanin", "multicast"])
    keys["traffic.pattern"] = pattern
    if pattern == "fanin":
        dest = rng.randrange(users)
        others = [p for p in range(users) if p != dest]
        keys["traffic.fanin_dest"] = dest
        keys["traffic.fanin_sources"] = ",".join(str(p) for p in sorted(rng.sample(others, min(len(others), rng.randint(2, 5)))))
    elif pattern == "multicast":
        # Sources on leaf 0, groups among the other leaves.
        keys["traffic.multicast_sources"] = ",".join(str(p) for p in sorted(rng.sample(range(ports), min(ports, 2))))
        keys["traffic.multicast_leaf_pool"] = ",".join(str(l) for l in range(1, leaves))
        keys["traffic.multicast_leaves_per_flow"] = rng.randint(1, leaves - 1)
        keys["traffic.multicast_flows_per_source"] = rng.choice([1, 2, 4])
        keys["traffic.load_gbps"] = rng.choice([5, 10, 20, 40])
    if rng.random() < 0.4:
        keys["classes.lossless_priorities"] = "0"
    else:
        keys["classes.lossless_priorities"] = ""
        keys["leaf.voq.threshold"] = rng.choice(["60KB", "60KB", "30KB", "128KB"])
        keys["leaf.voq.drop"] = rng.choice(["head", "head", "tail"])
    if rng.random() < 0.15:
        keys["errors.leaf_spine.ber"] = rng.choice(["1e-7", "1e-6"])
        keys["link.retry"] = rng.choice(["true", "false"])
        if keys["link.retry"] == "false":
            keys["leaf.e2e.timeout"] = "20us"
    if rng.random() < 0.3:
        keys["link.retry.ack_piggyback"] = "true"
    return keys


def draw_multicast_engine(rng):
    """The multicast engine's what-ifs (mechanisms 2, 3 and 8): a smaller or
    busier packet cache, VOQ sync off, trees spread over the leaves."""
    return {"leaf.cache.entries": rng.choice([1, 8, 32, 128]),
            "leaf.cache.mirrors": rng.choice([1, 2, 8]),
            "leaf.cache.header_lag": rng.choice([0, 3, 8]),
            "leaf.sync.enable": rng.choice(["true", "false"]),
            "multicast.leaf_order": rng.choice(["leaf_id", "spread"])}


def lossless(keys):
    return keys.get("classes.lossless_priorities", "") != ""


def draw_backplane(rng):
    stations = rng.choice([4, 6, 8])
    keys = {"backplane.stations": stations, "backplane.memory": rng.choice(["64KB", "256KB", "1536KB"]),
            "backplane.pause": rng.choice(["true", "false"]),
            "backplane.link_gbps": rng.choice([1, 10, 40]),
            "backplane.link_delay": rng.choice(["50ns", "150ns", "1us"])}
    for s in range(stations):
        keys[f"flow.w{s}.src"] = s
        keys[f"flow.w{s}.dst"] = ",".join(str(d) for d in range(stations) if d != s)
        keys[f"flow.w{s}.closed_loop"] = "true"
        keys[f"flow.w{s}.message"] = "exp:48:7KB:85KB"
        keys[f"flow.w{s}.stop"] = "2ms"
    return keys


def draw_ibft(rng):
    return {"ibft.m": rng.choice([4, 8]), "ibft.n": rng.choice([2, 3]),
            "ibft.scheme": rng.choice(["cyclic", "opensm", "unicast"]),
            "ibft.sources": rng.choice(["1", "40%", "100%"]), "ibft.group": rng.choice(["10%", "40%", "100%"]),
            "ibft.message_bytes": rng.choice(["64", "1KB", "4KB", "16KB"]),
            "ibft.forwarding": rng.choice(["cut_through", "store_and_forward"])}


def draw_ring(rng):
    stations = rng.choice([8, 16])
    return {"ring.stations": stations, "ring.groups": rng.choice(["3x5", "2x4", "1x8"] if stations == 16 else ["2x4", "1x8"]),
            "ring.q": rng.choice([0, 4]), "ring.delayed_retry": rng.choice(["true", "false"]),
            "ring.backoff": rng.choice(["true", "false"]), "traffic.load_gbps": rng.choice([0.5, 1, 2, 3])}


# --- Running --------------------------------------------------------------

class Run:
    def __init__(self, study, keys, seed, time):
        self.study, self.keys, self.seed, self.time = study, dict(keys), seed, time

    def command(self, binary, db):
        cmd = [binary, "--study", self.study, "--seed", str(self.seed), "--time", self.time, "--db", db]
        for k, v in self.keys.items():
            cmd += ["--set", f"{k}={v}"]
        return cmd

    def repro(self):
        sets = " ".join(f"--set '{k}={v}'" for k, v in self.keys.items())
        return f"fabricsim --study {self.study} --seed {self.seed} --time {self.time} {sets}"


class Result:
    def __init__(self, run, code, out, err, db):
        self.run, self.code, self.out, self.err, self.db = run, code, out, err, db

    def query(self, sql, args=()):
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, args).fetchall()

    def scalar(self, sql, args=()):
        rows = self.query(sql, args)
        return rows[0][0] if rows else None


# A key left at its default that the drawn what-if makes too small or too large.
REFUSED = [re.compile(r"key '([^']+)' has value '[^']*'; allowed: \d+ B \.\. (\d+) (B)"),
           re.compile(r"key '([^']+)' has value '[^']*'; allowed: at least (\d+) (B|headers)")]


def execute(binary, run, scratch, name):
    """Runs it. A draw refused because a key left at its default no longer fits (leaf.pause.qhi
    with bigger cells or a longer CNA cable, the lossless header pool with multicast) is run again
    with that key at the value the refusal allows, as an architect would set it; the reproducing
    command names it."""
    db = os.path.join(scratch, name + ".db")
    for _ in range(3):
        if os.path.exists(db):
            os.remove(db)
        r = subprocess.run(run.command(binary, db), capture_output=True, text=True)
        m = next((m for m in (p.search(r.stderr) for p in REFUSED) if m), None) if r.returncode == 2 else None
        if not m or m.group(1) in run.keys:
            break
        run.keys[m.group(1)] = f"{m.group(2)}B" if m.group(3) == "B" else m.group(2)
        if m.group(1) == "leaf.pause.qhi":  # GO below STOP, at the spec's ratio (90 KB to 160 KB)
            run.keys["leaf.pause.qlow"] = f"{int(m.group(2)) * 9 // 16}B"
    return Result(run, r.returncode, r.stdout, r.stderr, db)


# --- Checks -----------------------------------------------------------------

class Case:
    """A drawn what-if: its runs and the relation they must keep."""

    def __init__(self, number, kind, runs, relation):
        self.number, self.kind, self.runs, self.relation = number, kind, runs, relation
        self.failures = []   # (what, numbers, the run to reproduce it)
        self.refused = False
        self.bounds_checked = 0  # pre-run warnings held to what they state

    def fail(self, what, numbers, run):
        self.failures.append((what, numbers, run))


def check_run(case, res):
    """Exit status, the invariants' line and the copies' account of one run."""
    if res.code == 2:
        case.refused = True  # a draw the tool refuses is not a finding: the campaign's ranges are
        case.refusal = (res.err.strip().splitlines() or ["(no message)"])[-1]
        return False
    if res.code != 0:
        last = [l for l in res.err.strip().splitlines() if l.strip()][-3:]
        case.fail(f"the run failed (exit status {res.code})", " / ".join(last), res.run)
        return False
    if not re.search(r"invariants: \d+ checked, 0 broken", res.out):
        case.fail("no invariants line", res.out[-300:], res.run)
        return False
    m = re.search(r"copies: (\d+) injected = (\d+) delivered \+ (\d+) dropped \+ (\d+)", res.out)
    if m and "(drained" not in res.out and res.run.study != "perm640":
        pass  # a run still busy at its end: checked as it went
    return True


def min_remote_latency(res, ports_per_leaf):
    """{frame bytes: smallest latency of a copy delivered to another leaf}."""
    rows = res.query("SELECT d.bytes, min(d.t_delivered_ps - f.t_created_ps) FROM deliveries d "
                     "JOIN frames f USING (run_id, frame_id) WHERE f.src_port / ? != d.dst_port / ? "
                     "AND d.surrogate_levels = 0 GROUP BY d.bytes HAVING count(*) >= 20",
                     (ports_per_leaf, ports_per_leaf))
    return {b: v for b, v in rows}


def drops(res):
    return res.scalar("SELECT count(*) FROM drops") or 0


def mean_port_gbps(res):
    """Mean receive rate per receiving port over [5, 20) us, wire Gb/s."""
    span_ps = (STOP_US - MEASURE_FROM_US) * 1e6
    rows = res.query("SELECT sum(bytes + 20) * 8000.0 / ? FROM deliveries WHERE t_delivered_ps >= ? "
                     "AND t_delivered_ps < ? GROUP BY dst_port",
                     (span_ps, MEASURE_FROM_US * 1e6, STOP_US * 1e6))
    return sum(r[0] for r in rows) / len(rows) if rows else 0.0


def cable_case(number, rng, seed):
    # The minimum over a run's copies is a zero-load latency only where some
    # copies meet an empty path: light load, one frame size.
    keys = draw_fabric_base(rng)
    keys["traffic.load_gbps"] = rng.choice([2, 5, 10, 20])
    keys["traffic.frame_size"] = rng.choice(["64", "256", "1522", "9022"])
    # Even at light load a VOQ's copies wait for grants that come in cycles
    # of the request-grant round trip: the fastest copy is the one created
    # last before a cycle, and its wait moves with the cable by up to one
    # frame spacing (seed 73, case 16: +2952 ns for 3000 ns of flight, 64 B
    # frames 67.2 ns apart). Permutation traffic gives each VOQ the port's
    # constant spacing, the bound the judge allows. Light load also needs a
    # spine window that covers the longer cable's credit round trip, and no
    # lossless header pool at the least the tool allows (it PAUSEs every copy).
    if keys["traffic.pattern"] != "permutation":
        for key in [k for k in keys if k.startswith(("traffic.fanin_", "traffic.multicast_"))]:
            del keys[key]
        keys["traffic.pattern"] = "permutation"
    keys["spine.buffer_packets"] = "auto"
    if lossless(keys):
        keys.update({"classes.lossless_priorities": "", "leaf.voq.threshold": "60KB", "leaf.voq.drop": "head"})
    # ... and uplinks that carry what the leaf sends at most half loaded (4 spines
    # of 25 Gb/s under 8 ports of 20 Gb/s are not light load).
    uplinks_gbps = keys["topology.spines"] * UPLINK_GBPS
    keys["traffic.load_gbps"] = max([l for l in (2, 5, 10, 20) if l <= keys["traffic.load_gbps"] and
                                     keys["topology.user_ports_per_leaf"] * l <= uplinks_gbps / 2])
    extra = rng.choice([10, 40, 100, 300])
    longer = dict(keys, **{"topology.leaf_spine_cable_m": round(keys["topology.leaf_spine_cable_m"] + extra, 1)})
    runs = [Run("perm640", keys, seed, f"{SIM_TIME_US}us"), Run("perm640", longer, seed, f"{SIM_TIME_US}us")]
    case = Case(number, "cable", runs, f"+{extra} m of leaf-spine cable raises the minimum remote latency by "
                                       f">= {2 * extra * NS_PER_M:g} ns")

    def judge(results):
        base, var = results
        ppl = keys["topology.user_ports_per_leaf"]
        for res in results:
            if warning_bounds(res):
                case.fail("a cable case drawn outside light load (its premise)", str(warning_bounds(res)), res.run)
                return
        a, b = min_remote_latency(base, ppl), min_remote_latency(var, ppl)
        flight = 2 * extra * NS_PER_M * 1000
        # The leaves are clocked: a copy's latency depends on its phase against
        # the clock by up to a cycle in each of the two leaves it crosses; and
        # the fastest copy's wait for its grant cycle by up to a frame spacing.
        for size in sorted(set(a) & set(b)):
            spacing = (size + 20) * 8 * 1000 / keys["traffic.load_gbps"]
            slack = 2 * CYCLE_PS + spacing
            if b[size] < a[size] + flight - slack:
                case.fail("a longer cable raised the minimum remote latency by less than its flight",
                          f"{size} B: {a[size] / 1e3:.3f} ns at {keys['topology.leaf_spine_cable_m']} m, "
                          f"{b[size] / 1e3:.3f} ns at {longer['topology.leaf_spine_cable_m']} m "
                          f"(+{(b[size] - a[size]) / 1e3:.3f} ns, the extra flight {flight / 1e3:g} ns less two "
                          f"clock cycles and a frame spacing)", var.run)
    case.judge = judge
    return case


def load_case(number, rng, seed):
    keys = draw_fabric_base(rng)
    keys["classes.lossless_priorities"] = ""
    keys.setdefault("leaf.voq.threshold", "60KB")
    keys.setdefault("leaf.voq.drop", "head")
    factor = rng.choice([0.25, 0.5, 0.75])
    lower = dict(keys, **{"traffic.load_gbps": round(keys["traffic.load_gbps"] * factor, 2)})
    runs = [Run("perm640", keys, seed, f"{SIM_TIME_US}us"), Run("perm640", lower, seed, f"{SIM_TIME_US}us")]
    case = Case(number, "load", runs, f"{factor:g} x the load never drops more")

    def judge(results):
        high, low = drops(results[0]), drops(results[1])
        if low > high:
            case.fail("a lower load dropped more", f"{keys['traffic.load_gbps']} Gb/s: {high} drops; "
                      f"{lower['traffic.load_gbps']} Gb/s: {low} drops", results[1].run)
    case.judge = judge
    return case


def capacity_case(number, rng, seed):
    keys = draw_fabric_base(rng)
    keys["classes.lossless_priorities"] = "0"
    keys.pop("leaf.voq.threshold", None)
    keys.pop("leaf.voq.drop", None)
    keys["traffic.load_gbps"] = 100
    what = rng.choice(["spines", "ingress", "egress"])
    if what == "spines":
        keys["topology.spines"] = rng.choice([4, 8, 16])
        more = dict(keys, **{"topology.spines": keys["topology.spines"] * 2})
    elif what == "ingress":
        keys["leaf.ingress.lossless_pool"] = rng.choice(["128KB", "227KB", "300KB"])
        more = dict(keys, **{"leaf.ingress.lossless_pool": f"{int(keys['leaf.ingress.lossless_pool'][:-2]) * 2}KB"})
    else:
        keys["leaf.egress.pool"] = rng.choice(["32KB", "70KB", "140KB"])
        more = dict(keys, **{"leaf.egress.pool": f"{int(keys['leaf.egress.pool'][:-2]) * 2}KB"})
    seeds = [seed, seed + 1, seed + 2]
    runs = [Run("perm640", keys, s, f"{SIM_TIME_US}us") for s in seeds] + \
           [Run("perm640", more, s, f"{SIM_TIME_US}us") for s in seeds]
    case = Case(number, "capacity", runs, f"more {what} never lowers lossless throughput")

    def judge(results):
        a = [mean_port_gbps(r) for r in results[:3]]
        b = [mean_port_gbps(r) for r in results[3:]]
        ma, mb = sum(a) / 3, sum(b) / 3
        slack = interval(a) + interval(b) + 0.01 * ma
        if mb < ma - slack:
            case.fail(f"more {what} lowered a lossless run's throughput",
                      f"{ma:.2f} Gb/s per port (seeds {a}) -> {mb:.2f} (seeds {b}), beyond the seeds' "
                      f"interval {slack:.2f}", results[3].run)
    case.judge = judge
    return case


def interval(values):
    """The 95 % half-width of the mean of a few seeds' values (0 for one)."""
    _, sd, n = mean_sd(values)
    return half_width(sd, n) or 0.0


# The leaf's zero-load pipeline by hand (docs/model.md, tests/integration/
# zero_load_pipeline_test.cpp): store-and-forward ingress, the keys' defaults.
CYCLE_PS = 2203
LOOKUP, CROSSBAR, XBAR_BYTES = 3, 8, 36


def local_latency_ps(size, packet, cna_cable_m):
    byte = 80
    cable = cna_cable_m * NS_PER_M * 1000
    last_byte = cable + 8 * byte + size * byte
    header = cable + 8 * byte
    grant = header + (LOOKUP + 2 * CROSSBAR) * CYCLE_PS
    input_free, output_free = grant, 0.0
    i = 0
    while i * packet < size:
        end = min((i + 1) * packet, size)
        cycles = math.ceil((end - i * packet) / XBAR_BYTES)
        cut = max(input_free, last_byte)
        input_free = cut + cycles * CYCLE_PS
        output_free = max(cut + CROSSBAR * CYCLE_PS, output_free) + cycles * CYCLE_PS
        i += 1
    return output_free + (size + 20) * byte + cable


def e11_case(number, rng, seed):
    sizes = sorted(rng.sample([64, 128, 512, 1000, 1522, 4000, 9022], 3))
    keys = {"topology.cna_cable_m": rng.choice([1, 2, 5, 30]),
            "topology.leaf_spine_cable_m": round(math.exp(rng.uniform(math.log(1), math.log(400))), 1),
            "leaf.packet_bytes": rng.choice([64, 128, 256, 512, 1024])}
    for name, size in zip(["512", "1522", "9022"], sizes):
        keys[f"flow.local_{name}.frame_size"] = size
        keys[f"flow.remote_{name}.frame_size"] = size
    extra = rng.choice([5, 50, 200])
    longer = dict(keys, **{"topology.leaf_spine_cable_m": round(keys["topology.leaf_spine_cable_m"] + extra, 1)})
    # E11 spaces its frames 10 us apart so that no two meet; a remote frame and its
    # ACK take eight spans of flight, so a long cable needs them further apart (seed 57,
    # case 211: at 481 m a 9022 B frame met the 512 B one's ACK and took 122 ns more).
    spacing_us = 10 + math.ceil(8 * longer["topology.leaf_spine_cable_m"] * NS_PER_M / 1000)
    starts = {f"flow.{kind}_{name}.start": f"{i * spacing_us}us"
              for i, (kind, name) in enumerate((k, n) for k in ("local", "remote") for n in ("512", "1522", "9022"))}
    keys.update(starts)
    longer.update(starts)
    time = f"{6 * spacing_us + 10}us"
    runs = [Run("E11", keys, seed, time), Run("E11", longer, seed, time)]
    case = Case(number, "E11", runs, f"zero-load latencies by hand; +{extra} m moves remote ones by two to six spans")

    def latencies(res):
        return {n: v for n, v in res.query("SELECT l.name, v.latency_ps FROM v_latency v "
                                            "JOIN flows l USING (run_id, flow_id)")}

    def judge(results):
        a, b = latencies(results[0]), latencies(results[1])
        for name, size in zip(["512", "1522", "9022"], sizes):
            want = local_latency_ps(size, keys["leaf.packet_bytes"], keys["topology.cna_cable_m"])
            got = a.get(f"local_{name}")
            if got is None or abs(got - want) > 40:
                case.fail("a local zero-load latency is not the stages' sum",
                          f"{size} B, {keys['leaf.packet_bytes']} B cells: {got} ps, by hand {want:.0f} ps",
                          results[0].run)
            ra, rb = a.get(f"remote_{name}"), b.get(f"remote_{name}")
            span = extra * NS_PER_M * 1000
            if ra is None or rb is None or not 2 * span - 40 <= rb - ra <= 6 * span + 40:
                case.fail("a remote zero-load latency did not move by two to six spans of extra flight",
                          f"{size} B: {ra} ps at {keys['topology.leaf_spine_cable_m']} m, {rb} ps at "
                          f"{longer['topology.leaf_spine_cable_m']} m (by hand +{2 * span:.0f} to "
                          f"+{6 * span:.0f} ps)", results[1].run)
    case.judge = judge
    return case


# What a pre-run warning says the run cannot beat, and how the run's figure is read.
BOUNDS = [
    (re.compile(r"each leaf-spine link carries at most ([0-9.]+) Gb/s"), "uplink"),
    (re.compile(r"each spine-leaf link carries at most ([0-9.]+) Gb/s"), "downlink"),
    (re.compile(r"each leaf-spine link waits for ACKs, at most ([0-9.]+) Gb/s"), "uplink"),
    (re.compile(r"a lossy flow to another leaf gets at most ([0-9.]+) Gb/s"), "pair"),
    (re.compile(r"a port receives at most ([0-9.]+) Gb/s from other leaves"), "port_in"),
    (re.compile(r"whose traffic to other leaves is at most ([0-9.]+) Gb/s"), "port_out"),
]
# Effects a warning predicts, and the rows of the run that show them.
EFFECTS = [("frames are dropped at the payload threshold", "payload",
            "SELECT count(*) FROM drops WHERE reason = 'payload'", "drops at the payload threshold"),
           ("PAUSE on headers stops the port", "pause_headers",
            "SELECT count(*) FROM events WHERE kind = 'pause_headers'", "a PAUSE for headers")]


def warning_bounds(res):
    """(what, Gb/s) of each bound the run's warnings state; ("payload", None) for a predicted drop."""
    bounds = []
    for (message,) in res.query("SELECT message FROM run_warnings"):
        for pattern, what in BOUNDS:
            m = pattern.search(message)
            if m:
                bounds.append((what, float(m.group(1))))
        for phrase, what, _, _ in EFFECTS:
            if phrase in message:
                bounds.append((what, None))
    return bounds


def link_gbps(res, suffix):
    """The busiest link of a direction: its data (packets) over the whole run, Gb/s. Sources that never
    stop: a rate over the whole run is at most the rate of any part of it."""
    value = res.scalar("SELECT max(t.value) * 8000.0 / r.sim_time_ps FROM v_run_totals t JOIN runs r USING (run_id) "
                       "WHERE t.metric = 'data_bytes' AND t.entity LIKE ?", ("%" + suffix,))
    return value or 0.0


def remote_gbps(res, ports_per_leaf, group_by):
    """The busiest port (or pair) over the second half of the run, frames from or to other leaves, frame Gb/s."""
    end = SIM_TIME_US * 1e6
    value = res.scalar(f"SELECT max(g) FROM (SELECT sum(d.bytes) * 8000.0 / ? AS g FROM deliveries d "
                       f"JOIN frames f USING (run_id, frame_id) WHERE f.src_port / ? != d.dst_port / ? "
                       f"AND d.t_delivered_ps >= ? GROUP BY {group_by})",
                       (end / 2, ports_per_leaf, ports_per_leaf, end / 2))
    return value or 0.0


def check_warnings(case, res, keys):
    ppl = keys["topology.user_ports_per_leaf"]
    for what, bound in warning_bounds(res):
        case.bounds_checked += 1
        effect = next((e for e in EFFECTS if e[1] == what), None)
        if effect:
            if not res.scalar(effect[2]):
                case.fail("a warning's predicted effect did not show",
                          f"it predicted {effect[3]}; the run had none", res.run)
            continue
        seen = {"uplink": lambda: link_gbps(res, "_up"), "downlink": lambda: link_gbps(res, "_down"),
                "pair": lambda: remote_gbps(res, ppl, "f.src_port, d.dst_port"),
                "port_in": lambda: remote_gbps(res, ppl, "d.dst_port"),
                "port_out": lambda: remote_gbps(res, ppl, "f.src_port")}[what]()
        if seen > bound * 1.02 + 0.05:
            case.fail("a run beat its pre-run warning's bound",
                      f"the warning says {what} at most {bound:g} Gb/s; the run carried {seen:.2f}", res.run)


def plain_case(number, rng, seed):
    keys = draw_fabric_base(rng)
    del keys["traffic.stop"]  # the warnings' bounds are on rates: sources that never stop
    if keys["traffic.pattern"] == "multicast":
        keys.update(draw_multicast_engine(rng))
    runs = [Run("perm640", keys, seed, f"{SIM_TIME_US}us")]
    case = Case(number, "fabric", runs, "invariants, copies and warnings")
    case.judge = lambda results: None
    return case


def window_case(number, rng, seed):
    """The spine's credit window at its limit: uplinks loaded near their rate, few credits, any cable."""
    keys = draw_fabric_base(rng)
    del keys["traffic.stop"]
    keys.update({"traffic.pattern": "permutation", "traffic.load_gbps": rng.choice([60, 80, 100]),
                 "traffic.frame_size": rng.choice(["1522", "9022", "uniform:64:1522"]),
                 "spine.buffer_packets": rng.choice([2, 3, 4, 5, 6, 8, 12]),
                 "topology.spines": rng.choice([8, 16, 32]), "topology.user_ports_per_leaf": 5,
                 "topology.leaves": rng.choice([4, 8])})
    for k in ("traffic.fanin_dest", "traffic.fanin_sources", "traffic.multicast_sources",
              "traffic.multicast_leaf_pool", "traffic.multicast_leaves_per_flow", "traffic.multicast_flows_per_source"):
        keys.pop(k, None)
    case = Case(number, "fabric", [Run("perm640", keys, seed, f"{SIM_TIME_US}us")], "the credit window's bound")
    case.judge = lambda results: None
    return case


# A closed-loop job's collectives and algorithms (traffic/jobs/collectives.h).
JOB_ALGORITHMS = {
    "allreduce": ["ring", "tree"], "allgather": ["ring", "recursive_doubling", "multicast"],
    "reducescatter": ["ring"], "alltoall": ["pairwise", "direct"], "broadcast": ["binomial", "multicast"],
    "incast": ["direct"], "permutation": ["shift"],
}
FRAME_EFFICIENCY = 1500 / 1538  # 1500 B of payload in 1518 B frames, 20 B of preamble and gap


def job_case(number, rng, seed):
    """A closed-loop job on a small random fabric, lossless: it must finish,
    every op completed, the run ended by the job (not by sim.time), and its
    busbw never above a rank's link times the frame efficiency (whatever the
    collective, NCCL-tests' busbw is what one rank's link carries)."""
    keys = {k: v for k, v in draw_fabric_base(rng).items() if not k.startswith(("traffic.", "leaf.voq."))}
    keys["traffic.pattern"] = "none"
    keys["classes.lossless_priorities"] = "0"
    keys["record.sample_interval"] = "0"
    users = keys["topology.leaves"] * keys["topology.user_ports_per_leaf"]
    collective = rng.choice(sorted(JOB_ALGORITHMS))
    algorithm = rng.choice(JOB_ALGORITHMS[collective])
    n = rng.choice([2, 4, 8, 16]) if algorithm == "recursive_doubling" else rng.randint(2, 16)
    n = min(n, users if algorithm != "recursive_doubling" else 1 << (users.bit_length() - 1))
    keys["job.j.ranks"] = ",".join(str(p) for p in rng.sample(range(users), n))
    keys["job.j.collective"] = collective
    keys["job.j.algorithm"] = algorithm
    keys["job.j.bytes"] = rng.choice([0, 1, 1000, 4096, 65536, 300000, 1048576])
    if collective in ("broadcast", "incast"):
        keys["job.j.root"] = rng.randrange(n)
    if rng.random() < 0.3:
        keys["job.j.step_delay"] = rng.choice(["100ns", "1us"])
    if rng.random() < 0.3:
        keys["job.j.iterations"] = rng.choice([2, 3])
    if algorithm in ("tree", "binomial") and rng.random() < 0.5:
        keys["job.j.chunk_bytes"] = rng.choice(["0", "4KB", "64KB"])
    if algorithm == "multicast":
        keys.update(draw_multicast_engine(rng))
    case = Case(number, "job", [Run("perm640", keys, seed, "100ms")],
                f"{collective} {algorithm} over {n} ranks finishes, busbw <= the link x {FRAME_EFFICIENCY:.4f}")

    def judge(results):
        res = results[0]
        row = res.query("SELECT end_ps, completed_operations, operations, busbw_gbps FROM jobs")
        if not row:
            case.fail("no jobs row", "", res.run)
            return
        end, completed, operations, busbw = row[0]
        if end is None or completed != operations:
            case.fail("a lossless job did not finish", f"{completed} of {operations} operations", res.run)
            return
        line = float(keys.get("topology.user_port_gbps", 100))
        if busbw is not None and busbw > line * FRAME_EFFICIENCY * 1.0001:
            case.fail("busbw above what one rank's link carries", f"{busbw:.3f} Gb/s > {line * FRAME_EFFICIENCY:.3f}",
                      res.run)
        sim = res.scalar("SELECT sim_time_ps FROM runs")
        if sim is not None and sim >= 100_000_000_000:
            case.fail("the run went on to sim.time after its job ended", f"sim_time_ps {sim}, job end {end}", res.run)
    case.judge = judge
    return case


def platform_case(platform, drawer, study, time):
    def make(number, rng, seed):
        keys = drawer(rng)
        case = Case(number, platform, [Run(study, keys, seed, time)], "invariants and copies")
        case.judge = lambda results: None
        return case
    return make


KINDS = {
    "fabric": [(plain_case, 3), (window_case, 2), (cable_case, 3), (load_case, 3), (capacity_case, 1), (e11_case, 2),
               (job_case, 2)],
    "backplane": [(platform_case("backplane", draw_backplane, "E12a", "4ms"), 1)],
    "ibft": [(platform_case("ibft", draw_ibft, "E13", "1s"), 1)],
    "ring": [(platform_case("ring", draw_ring, "E14", "2ms"), 1)],
}
PLATFORM_SHARE = {"fabric": 0.7, "backplane": 0.1, "ibft": 0.1, "ring": 0.1}


def draw_cases(args):
    rng = random.Random(args.seed)
    platforms = args.platforms
    weights = [PLATFORM_SHARE[p] for p in platforms]
    cases = []
    for n in range(1, args.configs + 1):
        platform = rng.choices(platforms, weights)[0]
        makers, w = zip(*KINDS[platform])
        maker = rng.choices(makers, w)[0]
        cases.append(maker(n, rng, rng.randint(1, 10_000)))
    return cases


def run_case(binary, case, scratch):
    results = []
    for i, run in enumerate(case.runs):
        res = execute(binary, run, scratch, f"case{case.number}_{i}")
        if not check_run(case, res):
            return case
        if case.kind == "fabric":
            check_warnings(case, res, run.keys)
        results.append(res)
    case.judge(results)
    for res in results:
        if os.path.exists(res.db):
            os.remove(res.db)
    return case


# --- Report -----------------------------------------------------------------

def report(cases, args, out):
    failed = [c for c in cases if c.failures]
    refused = [c for c in cases if c.refused]
    by_kind = {}
    for c in cases:
        k = by_kind.setdefault(c.kind, [0, 0, 0, 0])
        k[0] += 1
        k[1] += len(c.runs)
        k[2] += bool(c.failures)
        k[3] += c.refused
    lines = [f"whatif-campaign: {len(cases)} cases (campaign seed {args.seed}), "
             f"{sum(len(c.runs) for c in cases)} runs, {len(failed)} failed, {len(refused)} refused as drawn; "
             f"{sum(c.bounds_checked for c in cases)} pre-run warnings held to the bound or effect they state", ""]
    lines.append(table(["kind", "cases", "runs", "failed", "refused"],
                       [[k, v[0], v[1], v[2], v[3]] for k, v in sorted(by_kind.items())]))
    for c in failed:
        lines.append("")
        lines.append(f"case {c.number} ({c.kind}: {c.relation}):")
        for what, numbers, run in c.failures:
            lines.append(f"  FAILED: {what}: {numbers}")
            lines.append(f"  reproduce: {run.repro()}")
    for c in refused:
        lines.append(f"case {c.number} ({c.kind}) refused: {c.refusal}")
    text = "\n".join(lines) + "\n"
    out.write(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text)
    return 1 if failed else 0


def parse_args(argv):
    p = tool.Parser(prog="whatif-campaign", description=__doc__.split("\n\n")[0])
    p.add_argument("binary", help="the fabricsim binary")
    p.add_argument("--configs", type=int, default=40, help="cases to draw (default 40)")
    p.add_argument("--seed", type=int, default=1, help="the campaign's own seed: the same seed draws the same cases")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases at once")
    p.add_argument("--platforms", default="fabric,backplane,ibft,ring", help="platforms to draw from")
    p.add_argument("--report", help="also write the report to this file")
    p.add_argument("--keep", help="keep the runs' databases in this directory")
    args = p.parse_args(argv)
    args.platforms = [x for x in args.platforms.split(",") if x]
    for x in args.platforms:
        if x not in KINDS:
            raise ReportError(f"--platforms: '{x}' is not a platform (allowed: {', '.join(KINDS)})"
                              + did_you_mean(x, KINDS))
    if not 1 <= args.configs <= 100_000:
        raise ReportError(f"--configs {args.configs}: allowed 1 .. 100000")
    args.binary = tool.fabricsim_binary(args.binary)
    return args


def main(argv=None):
    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        with tool.scratch_dir(args.keep, "whatif-campaign-") as scratch:
            cases = draw_cases(args)
            done = 0
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                futures = [pool.submit(run_case, args.binary, c, scratch) for c in cases]
                for f in as_completed(futures):
                    f.result()
                    done += 1
                    if done * 10 // len(cases) != (done - 1) * 10 // len(cases):
                        print(f"whatif-campaign: {done} of {len(cases)} cases done", file=sys.stderr, flush=True)
            return report(cases, args, sys.stdout)
    return tool.run("whatif-campaign", body)
