"""The names a search may optimise or constrain, checked before anything
runs: a run metric (search/run_metrics.py), an end-of-run total of the
metric catalog (`fabricsim --list-metrics`, kind total), or a numeric key
(`fabricsim --list-params`)."""
import re
import subprocess

from fabricpy import param_descriptions
from fabricpy.option_values import did_you_mean

from . import run_metrics
from .declaration import DeclarationError

NUMERIC_TYPES = ("integer", "real", "duration", "bytes", "rate", "boolean")


def catalog_totals(fabricsim):
    """{name: unit} of the end-of-run totals fabricsim's catalog defines."""
    try:
        text = subprocess.run([fabricsim, "--list-metrics"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    totals = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[2] == "total" and cells[0].startswith("`"):
            totals[cells[0].strip("`")] = cells[1]
    return totals


def figures_text(fabricsim):
    lines = ["Run metrics (search/run_metrics.py):"]
    lines += [f"  {m.name} ({m.unit}): {m.meaning}" for m in run_metrics.RUN_METRICS.values()]
    lines.append("End-of-run totals of the metric catalog, summed over their entities (fabricsim --list-metrics):")
    lines += [f"  {name} ({unit})" for name, unit in sorted(catalog_totals(fabricsim).items()) if "<" not in name]
    lines.append("Any numeric key of the run (fabricsim --list-params), e.g. leaf.cache.entries, backplane.memory.")
    return "\n".join(lines)


def check(declaration, fabricsim, record):
    """Raises DeclarationError naming a figure or key nobody defines, a key
    of text, or a figure of frames in runs that record none."""
    keys = param_descriptions.keys(fabricsim)
    for a in declaration.axes:
        if keys and param_descriptions.find(a.key, fabricsim) is None and a.key != "sim.seed":
            raise DeclarationError(f"--vary {a.text()}: '{a.key}' is not a key (fabricsim --list-params)"
                                   + did_you_mean(a.key, _concrete(keys, a.key)))
        if a.key == "sim.seed":
            raise DeclarationError("--vary sim.seed: the seeds are --seeds N, not a searched key")
        entry = param_descriptions.find(a.key, fabricsim)
        if entry and a.kind in ("int", "real") and entry[0] not in NUMERIC_TYPES:
            raise DeclarationError(f"--vary {a.text()}: '{a.key}' is a {entry[0]} key; give its values as a "
                                   f"list, {a.key}=A,B,C")
    totals = catalog_totals(fabricsim)
    figures = [(f"--{o.direction} {o.name}", o.name) for o in declaration.objectives]
    figures += [(f"--subject-to '{c.text()}'", c.name) for c in declaration.constraints]
    for option, name in figures:
        if name in run_metrics.RUN_METRICS:
            if record == "summary" and name not in run_metrics.SUMMARY_METRICS:
                raise DeclarationError(f"{option}: '{name}' needs every frame (--record frames)")
            if record == "summary" and declaration.warmup_ps:
                raise DeclarationError(f"{option}: '{name}' from a warm-up (--warmup) needs every frame "
                                       "(--record frames)")
            continue
        if name in totals or any(re.fullmatch(t.replace("<kind>", r"\w+"), name) for t in totals if "<" in t):
            continue
        entry = param_descriptions.find(name, fabricsim)
        if entry is not None:
            if entry[0] not in NUMERIC_TYPES:
                raise DeclarationError(f"{option}: '{name}' is a {entry[0]} key, not a number to optimise")
            continue
        known = [*run_metrics.RUN_METRICS, *(t for t in totals if "<" not in t),
                 *(k for k, entry in keys.items() if entry[0] in NUMERIC_TYPES)]
        raise DeclarationError(f"{option}: '{name}' is neither a run metric ({', '.join(run_metrics.RUN_METRICS)}), "
                               "an end-of-run total of fabricsim --list-metrics, nor a key (fabricsim "
                               f"--list-params){did_you_mean(name, _concrete(known, name))}; fabricsim-search "
                               "--list-figures lists them")


def _concrete(names, given):
    """The names, a pattern key's (flow.*.rate_gbps) with the instance `given`
    names (flow.web.rate_gbps), so that only a typo counts toward the distance."""
    parts = given.split(".")
    out = []
    for name in names:
        segments = name.split(".")
        if "*" in segments and len(segments) == len(parts):
            name = ".".join(p if s == "*" else s for s, p in zip(segments, parts))
        out.append(name)
    return out
