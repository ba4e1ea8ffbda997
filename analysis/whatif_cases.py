"""The what-if campaign's cases: each draws its runs and the relation they
must keep (analysis/whatif_campaign.py's docstring lists them)."""
import math

from analysis.whatif_draws import (NS_PER_M, SIM_TIME_US, UPLINK_GBPS, draw_backplane, draw_fabric_base, draw_ibft,
                                   draw_multicast_engine, draw_ring, lossless)
from analysis.whatif_runs import Case, Run, drops, mean_port_gbps, min_remote_latency, warning_bounds
from fabricpy.confidence import half_width, mean_sd


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
