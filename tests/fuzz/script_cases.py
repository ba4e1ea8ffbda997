"""The cases of the scripts' fuzzer (fuzz_scripts.py): command lines of
fabricsim-sweep and fabricsim-search. Each case knows whether it must be
refused (exit 2): a value the generator broke on purpose, or one of the
inputs the reliability audits found accepted, crashing or hanging (issue
52's N1-N16, the seeds, run first). Every other case may end in 0, 1 (a
point failed, no design met the constraints) or 2 (fabricsim refused a
combination), never in a traceback, a death by a signal or a hang."""
import random
from dataclasses import dataclass, field


@dataclass
class ScriptCase:
    label: str
    tool: str            # "fabricsim-sweep" or "fabricsim-search"
    args: list           # "{dir}": the case's own folder; "{fabricsim}": the binary
    must_refuse: bool = False
    words: tuple = ()    # what the one line of a refusal must hold
    env: dict = field(default_factory=dict)
    study_file: str = None  # a study file written to {dir}/study.ini


SWEEP, SEARCH = "fabricsim-sweep", "fabricsim-search"
SHORT = ["--time", "5us"]
CACHE_SEARCH = ["E2b", *SHORT, "--minimize", "leaf.cache.entries", "--subject-to", "min_subflow_gbps >= 1",
                "--trials", "2", "--jobs", "1"]


def seed_cases():
    """Issue 52's cases, each as the audit gave it (shortened in time)."""
    refuse = []
    for label, tool, args, words in [
        ("N6 sampler seed -1", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--sampler-seed", "-1"],
         ("--sampler-seed -1", "0-4294967295")),
        ("N6 sampler seed 2^32", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--sampler-seed",
                                          "4294967296"], ("--sampler-seed 4294967296",)),
        ("N6 missing fabricsim", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--fabricsim",
                                          "{dir}/nope"], ("not an executable",)),
        ("N6 missing fabricsim (sweep)", SWEEP, ["E2a", *SHORT, "--fabricsim", "{dir}/nope"], ("not an executable",)),
        ("N6 plot folder missing", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--plot",
                                            "{dir}/no/such/x"], ("--plot", "does not exist")),
        ("N8 abc among values", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4,abc,8"], ("'abc'",)),
        ("N9 sizes for an integer", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4KB..8KB"], ("'4KB'",)),
        ("N9 durations for a size", SEARCH, ["E12a", *SHORT, "--vary", "backplane.memory=1us..1ms", "--minimize",
                                             "backplane.memory", "--trials", "2"], ("'1us'",)),
        ("N9 hex", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=0x4..0x40"], ("'0x4'",)),
        ("N11 swept twice", SWEEP, ["E2a", *SHORT, "--sweep", "leaf.cache.entries=4,8", "--sweep",
                                    "leaf.cache.entries=16", "--dry-run"], ("leaf.cache.entries",)),
        ("N11 set and swept", SWEEP, ["E2a", *SHORT, "--set", "leaf.cache.entries=16", "--sweep",
                                      "leaf.cache.entries=4,8", "--dry-run"], ("leaf.cache.entries",)),
        ("N11 set and varied", SEARCH, [*CACHE_SEARCH, "--set", "leaf.cache.entries=16", "--vary",
                                        "leaf.cache.entries=4..64"], ("leaf.cache.entries",)),
        ("N16-like: jobs 0", SWEEP, ["E2a", *SHORT, "--jobs", "0"], ("--jobs 0",)),
        ("bad --jobs", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--jobs", "x"], ("--jobs",)),
        ("--seeds 0", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--seeds", "0"], ("--seeds 0",)),
        ("--trials 0", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64", "--trials", "0"],
         ("--trials 0",)),
        ("no study", SEARCH, ["--vary", "leaf.cache.entries=4..64", "--minimize", "leaf.cache.entries"],
         ("name a study",)),
        ("--merge-attempt with a newline", SWEEP, ["E2a", *SHORT, "--merge-attempt", "1\ntouch x"],
         ("--merge-attempt",)),
    ]:
        refuse.append(ScriptCase(label, tool, args, True, words))
    accept = [
        ScriptCase("N1 a gigabyte-wide boundary search", SEARCH,
                   ["E12a", "--time", "20us", "--vary", "backplane.memory=16KB..1GB", "--minimize", "backplane.memory",
                    "--subject-to", "drops <= 1000000", "--trials", "3", "--jobs", "2"]),
        ScriptCase("N4 a '?' in --db", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4..64",
                                               "--db", "{dir}/q?a.db"]),
        ScriptCase("N9 spaces around ..", SEARCH, [*CACHE_SEARCH, "--vary", "leaf.cache.entries=4 .. 64"]),
        ScriptCase("D3 a thousand seeds", SWEEP, ["E2a", *SHORT, "--sweep", "inherit=false", "--sweep",
                                                 "sim.seed=" + ",".join(str(s) for s in range(1, 1001)), "--dry-run"]),
        ScriptCase("shell text in --db", SWEEP, ["E2a", *SHORT, "--sweep", "leaf.cache.entries=4,8", "--sweep",
                                                 "flow.f1.frame_size=512", "--db", "{dir}/a'$(touch x)`y`\nz.db"]),
    ]
    return refuse + accept


# Option values: (text, valid). The invalid ones must be refused wherever they appear.
JOBS = [("1", True), ("2", True), ("0", False), ("-3", False), ("10001", False), ("two", False), ("", False)]
TRIALS = [("1", True), ("2", True), ("0", False), ("100001", False), ("1.5", False), ("x", False)]
SEEDS = [("1", True), ("2", True), ("0", False), ("1001", False), ("-1", False)]
SAMPLER = [("0", True), ("4294967295", True), ("-1", False), ("4294967296", False), ("1e3", False)]
TIMES = [("5us", True), ("2us", True), ("0", False), ("-5us", False), ("5parsecs", False), ("1e999s", False)]
DB_NAMES = [("run.db", True), ("q?a.db", True), ("with space.db", True), ("x#y.db", True), ("a%jb.db", True),
            ("", False), (":memory:", False), ("file:x.db", False), ("{dir}", False)]
# --vary declarations of E2b's leaf.cache.entries (an integer key, 1 .. 4096).
VARY = [("leaf.cache.entries=4..64", True), ("leaf.cache.entries=4..64:log", True),
        ("leaf.cache.entries=8,16,32", True), ("leaf.cache.entries=4..64:int:log", True),
        ("leaf.cache.entries=64..4", False), ("leaf.cache.entries=4..4", False), ("leaf.cache.entries=4", False),
        ("leaf.cache.entries=4,4", False), ("leaf.cache.entries=", False), ("leaf.cache.entries=4..64:real", False),
        ("leaf.cache.entries=4..64:cubic", False), ("leaf.cache.entries=-4..64:log", False),
        ("leaf.cache.entries=4KB..8KB", False), ("leaf.cache.entries=4..1e9", False),
        ("leaf.cache.entries=1.5..9", False), ("leaf.cache.entries=4,,8", False), ("no.such.key=1..4", False),
        ("=1..4", False), ("leaf.cache.entries", False), ("leaf.cache.entries=4..8:all", False),
        ("leaf.cache.impl=1..4", False), ("leaf.cache.entries=nan..inf", False), ("leaf.cache.entries=☃..9", False)]
OBJECTIVES = [(["--minimize", "leaf.cache.entries"], True), (["--maximize", "min_subflow_gbps"], True),
              (["--minimize", "no_such_figure"], False), (["--minimize", ""], False),
              (["--minimize", "leaf.cache.entries", "--maximize", "leaf.cache.entries"], False)]
CONSTRAINTS = [("min_subflow_gbps >= 1", True), ("mean_subflow_gbps > 0", True), ("min_subflow_gbps >= inf", False),
               ("min_subflow_gbps => 1", False), ("min_subflow_gbps >= ", False), (">= 3", False),
               ("no_such >= 1", False), ("min_subflow_gbps >= 1e999", False)]
SWEEPS = [("leaf.cache.entries=4,8", True), ("leaf.cache.entries=4|8", True), ("leaf.cache.entries=4|", False), ("leaf.cache.entries=", False),
          ("leaf.cache.entries=4,abc", False), ("leaf.cache.entries=0,8", False), ("no.such=1,2", False),
          ("=1,2", False), ("leaf.cache.entries", False), ("flow.f1.frame_size=512,1522", True),
          ("sim.seed=1,2", True), ("sim.seed=1-3", True)]
GARBAGE = ["--no-such-option", "--jobs=", "--db", "-", "--set", "=", "--set", "leaf.cache.entries", "--config",
           "/nonexistent.ini", "--record", "everything", "--backend", "mpi", "\x01", "--study"]


def _pick(rng, table, broken=0.15):
    """A value of the table: a broken one with the probability `broken`."""
    good = [t for t in table if t[1]]
    bad = [t for t in table if not t[1]]
    return rng.choice(bad if bad and (rng.random() < broken or not good) else good)


def random_case(rng, number):
    """One command line of a tool with random options, and whether it must be refused."""
    tool = rng.choice([SWEEP, SEARCH])
    args = ["E2b"] if tool == SEARCH else [rng.choice(["E2a", "E2b", "E1a"])]
    bad = []
    time, ok = _pick(rng, TIMES) if rng.random() < 0.3 else ("5us", True)
    args += ["--time", time]
    bad += [] if ok else [f"--time {time!r}"]
    for option, table, chance in (("--jobs", JOBS, 0.4), ("--db", DB_NAMES, 0.4)):
        if rng.random() < chance:
            value, ok = _pick(rng, table)
            args += [option, value]
            bad += [] if ok else [f"{option} {value!r}"]
    if tool == SWEEP:
        for _ in range(rng.randint(0, 2)):
            value, ok = _pick(rng, SWEEPS)
            args += ["--sweep", value]
            bad += [] if ok else [f"--sweep {value!r}"]
        if rng.random() < 0.5:
            args.append("--dry-run")
    else:
        value, ok = _pick(rng, VARY)
        args += ["--vary", value]
        bad += [] if ok else [f"--vary {value!r}"]
        objective, ok = _pick(rng, OBJECTIVES)
        args += objective
        bad += [] if ok else [f"objective {objective!r}"]
        if rng.random() < 0.5:
            value, ok = _pick(rng, CONSTRAINTS)
            args += ["--subject-to", value]
            bad += [] if ok else [f"--subject-to {value!r}"]
        for option, table in (("--trials", TRIALS), ("--seeds", SEEDS), ("--sampler-seed", SAMPLER)):
            if rng.random() < 0.3:
                value, ok = _pick(rng, table)
                args += [option, value]
                bad += [] if ok else [f"{option} {value!r}"]
        if "--trials" not in args:
            args += ["--trials", "1"]
    if rng.random() < 0.1:
        word = rng.choice(GARBAGE)
        args.insert(rng.randint(1, len(args)), word)
        bad.append(f"stray {word!r}")
    return ScriptCase(f"random {number}: {tool} " + " ".join(repr(a) if " " in a or not a else a for a in args),
                      tool, args, must_refuse=bool(bad) and not _may_pass(bad))


def _may_pass(bad):
    """A stray word may be read as an option's value (--set =) and be accepted:
    only the breakages that cannot be read otherwise must be refused."""
    return all(b.startswith("stray") for b in bad)


def all_cases(seed, count):
    rng = random.Random(seed)
    return [random_case(rng, i) for i in range(count)]
