"""Cases for the configuration fuzzer: each is a fabricsim command line (and
the files it reads) that must end with exit 0 or 2. Values for every key
below, at and above its printed bounds, non-numbers, overflow and empty;
random INI files; random command-line words. Deterministic for a seed."""

import math
import os
import random
from dataclasses import dataclass, field

from param_table import INTEGER_TYPES, REAL_TYPES

BASE_INI = """# the fuzzer's base: a 2-leaf fabric, a unicast and a multicast flow, 2 us
[sim]
time = 2us
[topology]
racks = 1
leaves = 2
[flow.fz]
src = 0
dst = 5
frame_size = 512
[flow.fm]
kind = multicast
src = 6
dst = 1,7,8
frame_size = uniform:64:9216
"""

# The base of a backplane key's cases: the E12 traffic on the backplane switch, 50 us.
BACKPLANE_INI = """platform = backplane
[sim]
time = 50us
[flow.fz]
src = 0
dst = 1,2,3
closed_loop = true
message = exp:48:7KB:85KB
"""

# The base of an ibft key's cases: IBFT(4, 3), every node to 40 % of the others.
IBFT_INI = """platform = ibft
[ibft]
m = 4
n = 3
message_bytes = 256
"""

# The base of a ring key's cases: E14's ring, 3 groups of 5 at 2 Gb/s, 200 us.
RING_INI = """platform = ring
[sim]
time = 200us
[traffic]
load_gbps = 2
"""

# Each platform's base but the fabric's (BASE_INI): "{base_NAME}" in a case.
PLATFORM_BASES = {"backplane": BACKPLANE_INI, "ibft": IBFT_INI, "ring": RING_INI}

# Every run: short, quiet, its own database.
COMMON = ["--quiet", "--record", "summary"]
DB = ["--db", "{dir}/run.db"]
OVERFLOW = "99999999999999999999999"
ANY_KEY_VALUES = ["", " ", "abc", OVERFLOW, "-" + OVERFLOW, "1e400", "nan", "inf", "0x10", "-0", "+1", "1,", ",",
                  "x" * 300, "\u00e9\u00e8", "1 2", "=", "'1'", "1#2", "1 ;c"]


@dataclass
class Case:
    label: str
    args: list
    files: dict = field(default_factory=dict)  # name in the case directory -> bytes
    bound: tuple | None = None  # (key, value, allowed): a printed bound, to be accepted
    fifos: list = field(default_factory=list)  # names of FIFOs made in the case directory
    must_refuse: bool = False  # a hand-made case of bad input: exit 2 is the only right end
    platform: str = "fabric"  # the platform of its base


def key_case(param, value, context=(), bound=False, platform=None):
    sets = [f"{k}={v}" for k, v in context] + [f"{param.concrete_key()}={value}"]
    platform = platform or param.platform
    base = "{base_" + platform + "}" if platform in PLATFORM_BASES else "{base}"
    args = ["--config", base] + COMMON + DB
    for assignment in sets:
        args += ["--set", assignment]
    label = " ".join("--set " + repr(s) if len(s) < 120 else f"--set {s[:100]!r}...({len(s)} chars)" for s in sets)
    return Case(label, args, bound=(param.concrete_key(), value, param.allowed) if bound else None,
                platform=platform if platform in PLATFORM_BASES else "fabric")


# Keys that are read only together with others: set those too, so that the
# value reaches the code that uses it (otherwise it is only an unused key).
def context_of(key):
    flow_multicast = [("flow.fz.kind", "multicast"), ("flow.fz.dst", "1,6")]
    if key == "flow.*.explicit_tree":
        return flow_multicast + [("flow.fz.tree", "explicit")]
    if key == "flow.*.tree":
        return flow_multicast
    if key in ("traffic.fanin_sources", "traffic.fanin_dest"):
        return [("traffic.pattern", "fanin")] + ([("traffic.fanin_sources", "1,2")] if key.endswith("dest") else [])
    if key.startswith("traffic.multicast_"):
        return [("traffic.pattern", "multicast"), ("traffic.multicast_sources", "0"),
                ("traffic.multicast_leaf_pool", "1"), ("traffic.multicast_leaves_per_flow", "1")]  # the source outside the pool
    if key in ("traffic.shift", "traffic.permutation"):
        return [("traffic.pattern", "permutation"), ("traffic.permutation", "shift")]
    if key.startswith("traffic.") and key != "traffic.pattern":
        return [("traffic.pattern", "uniform")]
    if key.startswith("leaf.qcn.") and key != "leaf.qcn.position":
        return [("leaf.qcn.position", "both")]
    if key.startswith("job.*.") and key != "job.*.ranks":
        return [("job.fz.ranks", "0,5,6,9")] + JOB_CONTEXT.get(key, [])
    return []


# A job's keys read only with some collective (a 4-rank job on the base's 2 leaves).
GOAL_EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "goal", "schedgen2_schedule.goal")
JOB_CONTEXT = {
    "job.*.root": [("job.fz.collective", "broadcast")],
    "job.*.tree": [("job.fz.collective", "allgather"), ("job.fz.algorithm", "multicast")],
    "job.*.schedule": [("job.fz.collective", "goal")],
    "job.*.calc_unit": [("job.fz.ranks", "0-7"), ("job.fz.collective", "goal"), ("job.fz.schedule", GOAL_EXAMPLE)],
}


def _integer_bounds(param):
    """(at the bounds, just beyond them) for an integer-valued key."""
    at, beyond = [], []
    for bound, step in ((param.min, -1), (param.max, 1)):
        if bound is not None:
            at.append(bound + param.bound_unit)
            try:
                beyond.append(str(int(bound) + step) + param.bound_unit)
            except ValueError:  # not printed as an integer: typing it in is the test
                pass
    return at, beyond


def _real_bounds(param):
    """(at the bounds, just beyond them: the next double, and one further) for a real key."""
    at, beyond = [], []
    for bound, towards in ((param.min, -math.inf), (param.max, math.inf)):
        if bound is not None:
            at.append(bound + param.bound_unit)
            beyond.append(repr(math.nextafter(float(bound), towards)) + param.bound_unit)
            beyond.append(repr(float(bound) + math.copysign(1.0, towards)) + param.bound_unit)
    return at, beyond


STRUCTURED = {
    "errors.scripted": ["", "leaf0_spine0_up:1", "leaf0_spine0_up:18446744073709551615",
                        "leaf0_spine0_up:18446744073709551616", "leaf0_spine0_up:" + OVERFLOW, ",leaf0_spine0_up:1",
                        "leaf0_spine0_up:1,,leaf0_spine1_up:2", "leaf0_spine0_up:1,", "leaf9_spine0_up:1",
                        "leaf0_port0_from_cna:0", "leaf1_port4_to_cna:3", ":", "a:b:c", "leaf0_spine0_up:-1",
                        "leaf0_spine0_up", "leaf0_spine99999999999999999999_up:1"],
    "flow.*.explicit_tree": ["0:1,11;11:6", "0:1,6", "0:1,4294967295", "0:4294967296", "0:1,11;;11:6", "0:1;0:2",
                             "11:6", "0:11;11:11", "0:1,11;11:6,10;10:11", "0:" + OVERFLOW, "0:", ":1", "0:1,11;11:6;",
                             "0:1,2,3,4,6,7,8,9,10,11", "4294967295:4294967295"],
    "flow.*.frame_size": ["64", "9216", "63", "9217", "uniform:64:9216", "uniform:9216:64", "uniform:64",
                          "choice:64,,512", "choice:", "choice:64,9216", "4294967360", OVERFLOW, "uniform:64:" + OVERFLOW],
    "flow.*.stop": ["", "1ns", "0", "-1ns", "9223372036854775807", "9223372036854775808", "1e400s", "soon",
                    "9223372036854775807ps", "10000000s"],
    "flow.*.schedule": ["100ns-200ns", "0-1", "200ns-100ns", "1ns-2ns,,3ns-4ns", "", "1ns-2ns,1ns-3ns",
                        "9223372036854775806-9223372036854775807", "1ns-" + OVERFLOW, "1e-3us-2ns", "-1ns-2ns",
                        "1ns-2ns-3ns", ",1ns-2ns"],
    "leaf.control.coalesce": ["", "request", "request,grant,ack", "request,,ack", "credit", "ack,ack", ",", "ack,"],
}
STRUCTURED["traffic.frame_size"] = STRUCTURED["flow.*.frame_size"]
STRUCTURED["traffic.stop"] = STRUCTURED["flow.*.stop"]


def value_tiers(param):
    """A key's values in tiers, most telling first: the printed bounds (to be
    accepted), overflow, just beyond the bounds, empty, the key's own values
    (choices, structured text), then junk."""
    at, beyond, own = [], [], []
    if param.type in INTEGER_TYPES:
        at, beyond = _integer_bounds(param)
    elif param.type in REAL_TYPES:
        at, beyond = _real_bounds(param)
    elif param.type == "choice":
        own = param.choices + [param.choices[0].upper()]
    elif param.type == "boolean":
        own = ["true", "off", "maybe"]
    own += STRUCTURED.get(param.key, [])
    if param.type == "int_list":
        own += ["0-" + OVERFLOW, "1,,2", "5-3", "0-4000000000"]
    junk = [v for v in ANY_KEY_VALUES if v not in (OVERFLOW, "")]
    return [[(v, True) for v in at], [(OVERFLOW, False)], [(v, False) for v in beyond], [("", False)],
            [(v, False) for v in own], [(v, False) for v in junk]]


def values_of(param):
    return [value for tier in value_tiers(param) for value in tier]


def random_value(rng):
    alphabet = "0123456789:,;-.e+ abcmsnupGBK_/x\t="
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))


def key_cases(params, rng, count):
    """Round robin over the keys, so that every key gets its most telling
    values first; each tier in a seeded order."""
    queues = []
    for param in params:
        values = []
        for tier in value_tiers(param):
            rng.shuffle(tier)
            values += tier
        queues.append((param, values))
    rng.shuffle(queues)
    cases = []
    round_ = 0
    while len(cases) < count:
        for param, values in queues:
            if len(cases) == count:
                break
            value, bound = values[round_] if round_ < len(values) else (random_value(rng), False)
            cases.append(key_case(param, value, context_of(param.key), bound))
        round_ += 1
    return cases


def combo_case(params, rng):
    """Several keys at once, mostly at values they accept (a printed bound, a
    choice, a structured value), to reach the model with unusual settings."""
    platform = rng.choice(sorted({p.platform for p in params if p.platform}))
    picked = rng.sample([p for p in params if p.platform in ("", platform)], rng.randint(2, 5))
    sets = []
    for param in picked:
        tiers = value_tiers(param)
        likely_valid = tiers[0] + tiers[4] or values_of(param)
        value, _ = rng.choice(likely_valid if rng.random() < 0.8 else values_of(param))
        sets += context_of(param.key) + [(param.concrete_key(), value)]
    case = key_case(picked[-1], sets[-1][1], sets[:-1], platform=platform)
    case.label = "combo " + case.label
    return case


def _random_ini(params, rng):
    lines = []
    for _ in range(rng.randint(1, 12)):
        choice = rng.randrange(10)
        if choice == 0:
            lines.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))))
        elif choice == 1:
            lines.append(("".join(rng.choice("abc.[]_ ") for _ in range(rng.randint(1, 20)))).encode())  # no '='
        elif choice == 2:
            lines.append(b"leaf.cache.entries = " + b"7" * rng.choice([100, 10_000, 200_000]))
        elif choice == 3:
            lines.append(("no.such.key%d = 1" % rng.randrange(100)).encode())
        elif choice == 4:
            lines.append(("[" + rng.choice(["leaf", "flow.fz", "", " ", "a b", "topology", "x" * 500]) + "]").encode())
        elif choice == 5:
            lines.append(("include = " + rng.choice(["", ".", "missing.ini", "/", "fuzz.ini", "/dev/null",
                                                    "../" * 40 + "etc/passwd"])).encode())
        elif choice == 6:
            lines.append(b"k" * rng.choice([300, 100_000]) + b" = 1")
        elif choice == 7:
            lines.append(rng.choice([b"\xef\xbb\xbf[sim]", b"time = 100ns\r", b"= 5", b"  ;comment", b"#", b"\x00=\x00"]))
        else:
            param = rng.choice(params)
            value, _ = rng.choice(values_of(param))
            lines.append(f"{param.concrete_key()} = {value}".encode("utf-8", "surrogateescape"))
    return b"\n".join(lines) + rng.choice([b"\n", b""])


def ini_case(params, rng):
    files = {"fuzz.ini": _random_ini(params, rng)}
    with_base = ["--config", "{base}"] if rng.random() < 0.7 else []
    args = with_base + ["--config", "{dir}/fuzz.ini"] + COMMON + DB
    return Case(f"ini {files['fuzz.ini'][:80]!r} ({len(files['fuzz.ini'])} bytes)", args, files)


CLI_WORDS = ["--time", "--seed", "--set", "--config", "--study", "--db", "--record", "--log-level", "--quiet", "--help",
             "--list-studies", "-", "--", "E1a", "E11", "perm640", "--tiem", "-x", "300ns", "1", OVERFLOW,
             "leaf.cache.entries=5", "=", "a", "", "--set=", "--time=", "--db=", ":memory:", "{dir}/other.db",
             "/nonexistent/x.db", "{dir}", "--study=nope", "--log-level=frames", "--seed=-1", "--time=-1ns",
             "--config={dir}/missing.ini", "\u00e9", "--sett", "--set=sim.seed=" + OVERFLOW, "w" * 100_000,
             "--" + "o" * 100_000, "--set=" + "k" * 100_000 + "=1", "\x01\x7f"]


def cli_case(rng):
    words = [rng.choice(CLI_WORDS) for _ in range(rng.randint(1, 6))]
    args = ["--config", "{base}"] + COMMON + words
    if "--db" not in " ".join(words):
        args += DB
    shown = [w if len(w) <= 100 else f"{w[:60]}...({len(w)} chars)" for w in words]
    return Case("cli " + repr(shown), args)


def seeded(label, args, **kw):
    base = args[1] if args[:1] == ["--config"] else ""
    platform = next((p for p in PLATFORM_BASES if base == "{base_" + p + "}"), "fabric")
    return Case("seed " + label, args + COMMON + DB, must_refuse=True, platform=platform, **kw)


# Hand-made cases, run first in every fuzz run: the inputs the reliability
# audits (issues 19 and 37) found crashing, hanging, accepted although
# malformed, or losing what they reported done. Each must be refused (exit 2).
def seed_cases():
    fabric, ring, ibft = ["--config", "{base}"], ["--config", "{base_ring}"], ["--config", "{base_ibft}"]
    cases = [seeded(f"ring.groups={v}", ring + ["--set", f"ring.groups={v}"])
             for v in (OVERFLOW + "x2", "2x" + OVERFLOW, "0x5", "3x5x2", "3x", "x5", "0x10", "3 x -5")]
    cases += [seeded(f"traffic.load_schedule={v}", ring + ["--set", f"traffic.load_schedule={v}"])
              for v in ("1us-2us:0x10", "1us-2us:inf", "1us-2us:nan", "1us-2us:1e400", "1us-2us:" + OVERFLOW)]
    cases += [seeded("ring back-off of 1 s x e^2 in a 200 us run",
                     ring + ["--set", "ring.backoff=true", "--set", "ring.backoff_d=2", "--set", "ring.backoff_d0=1s"]),
              seeded("ring.group_rings=0-1;x", ring + ["--set", "ring.rings=3", "--set", "ring.group_rings=0-1;x"]),
              seeded("ring.host_queue=0", ring + ["--set", "ring.host_queue=0"]),
              seeded("ibft.group=40%%", ibft + ["--set", "ibft.group=40%%"]),
              seeded("ibft.group=%", ibft + ["--set", "ibft.group=%"]),
              seeded("rtl.trace in a missing folder", fabric + ["--set", "leaf.sync.impl=rtl", "--set",
                                                                "rtl.trace={dir}/nosuchdir/w.fst"]),
              seeded("rtl.trace.leaf without rtl.trace", fabric + ["--set", "rtl.trace.leaf=1"]),
              seeded("a FIFO as --config", fabric + ["--config", "{dir}/fifo.ini"], fifos=["fifo.ini"]),
              seeded("/dev/zero as --config", fabric + ["--config", "/dev/zero"]),
              seeded("a folder as --config", fabric + ["--config", "{dir}"])]
    # Issue 52: an include that is no INI file; a renamed key's old and new names together; a key swept
    # twice or set and swept; a plain run of a file with a broken [sweep].
    old, new = "leaf.coalesce_control", "leaf.control.merge_queued"
    cases += [seeded("include = /etc/passwd", ["--config", "{dir}/passwd.ini"], files={"passwd.ini": b"include = /etc/passwd\n"}),
              seeded("old and new name by --set", fabric + ["--set", f"{old}=false", "--set", f"{new}=true"]),
              seeded("old name in a file, new by --set", fabric + ["--config", "{dir}/old.ini", "--set", f"{new}=true"],
                     files={"old.ini": b"[leaf]\ncoalesce_control = false\n"}),
              seeded("--sweep K twice", fabric + ["--points", "--sweep", "leaf.cache.entries=4,8",
                                                  "--sweep", "leaf.cache.entries=16"]),
              seeded("--set K with --sweep K", fabric + ["--points", "--set", "leaf.cache.entries=16",
                                                         "--sweep", "leaf.cache.entries=4,8"]),
              seeded("--set old name with --sweep new name", fabric + ["--points", "--set", f"{old}=false",
                                                                        "--sweep", f"{new}=true,false"]),
              seeded("a plain run of a broken [sweep]", fabric + ["--config", "{dir}/sweep.ini"],
                     files={"sweep.ini": b"[sweep]\nleaf.cache.entries = 16, 16\n"})]
    # Databases that keep nothing (--db comes last: it overrides the case's own).
    cases += [Case("seed --db " + repr(db), fabric + COMMON + ["--db", db], must_refuse=True)
              for db in ("file::memory:", "file:x.db?mode=memory", ":memory:", "", "{dir}")]
    return cases


def all_cases(params, seed, count):
    rng = random.Random(seed)
    n_key = max(1, int(count * 0.7))
    n_combo = int(count * 0.1)
    n_ini = int(count * 0.1)
    n_cli = count - n_key - n_combo - n_ini
    cases = key_cases(params, rng, n_key)
    cases += [combo_case(params, rng) for _ in range(n_combo)]
    cases += [ini_case(params, rng) for _ in range(n_ini)]
    cases += [cli_case(rng) for _ in range(n_cli)]
    return cases
