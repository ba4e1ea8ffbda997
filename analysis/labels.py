"""Words and units for titles, axes and tables."""
from fabricpy.option_values import parse_duration_ps


def duration(ps):
    """A time in the largest unit that keeps it readable: '1 ms', '70 us'."""
    for unit, scale in (("s", 10**12), ("ms", 10**9), ("us", 10**6), ("ns", 10**3)):
        if ps >= scale:
            return f"{ps / scale:g} {unit}"
    return f"{ps} ps"


# Why a run that is not 'done' ended where it did, and what its data is worth.
_WHY = {
    "interrupted": "killed or stopped; the data up to then is complete",
    "failed": "a stall or a model error, see fabricsim's output; the data up to then is complete",
}
_WHY_RUNNING = {
    "alive": "its fabricsim, process {pid}, is still writing it",
    "unknown": "its fabricsim, process {pid} on another machine, may still be writing it (fabric-report on "
               "that machine can tell)",
    None: "a fabricsim is still writing it, or was stopped outright before files recorded who writes a run",
}


def why_running(run):
    pid, state = run.owner or (None, None)
    return _WHY_RUNNING.get(state, _WHY_RUNNING[None]).format(pid=pid)


def run_state(run):
    """None for a run that is done; else (its status with the simulated time
    it reached out of the configured time, why it stopped there)."""
    if run.status == "done":
        return None
    configured = run.config.get("sim.time")
    configured_ps = parse_duration_ps(configured) if configured else None
    of = duration(configured_ps) if configured_ps else configured
    why = why_running(run) if run.status == "running" else _WHY.get(run.status, "a status unknown to this report")
    if not run.sim_time_recorded and not run.sim_time_ps:
        return f"{run.status}, nothing recorded yet" + (f" ({of} configured)" if of else ""), why
    if run.status == "running":
        reached = "running, rows complete up to" if run.sim_time_recorded else "running, last record at"
    else:
        reached = f"{run.status} at" if run.sim_time_recorded else f"{run.status}, last record at"
    return f"{reached} {duration(run.sim_time_ps)}" + (f" of {of}" if of else ""), why


def key_parameters(run):
    """One line naming what a reader needs to tell this run from another:
    the traffic, the fabric's size and what differs from a plain run."""
    if run.platform == "backplane":
        return _backplane_parameters(run)
    if run.platform == "ibft":
        return _ibft_parameters(run)
    if run.platform == "ring":
        return _ring_parameters(run)
    flows = list(run.flows.values())
    kinds = sorted({f["kind"] for f in flows})
    sizes = sorted({f["frame_size"] for f in flows})
    size_text = ", ".join(sizes[:3]) + (", ..." if len(sizes) > 3 else "")
    c = run.config
    fabric = f"{run.user_ports} ports on {run.leaves} leaves"
    parts = [f"{len(flows)} {'/'.join(kinds) or 'no'} flows", f"frames {size_text} B", offered_load(run),
             fabric, f"seed {run.seed}", duration(run.sim_time_ps)]
    pattern = c.get("traffic.pattern")
    if pattern and pattern != "none":
        # An unset load is the ports' line rate (saturating).
        load = c.get("traffic.load_gbps") or c.get("topology.user_port_gbps", "?")
        parts.insert(0, f"{pattern} at {load} Gb/s per port")
    return ", ".join(parts)


def offered_load(run):
    """What the flows offer, as a reader compares it with a port: per
    source port (the most any port offers), or a count of frames where
    every flow sends a set number of them."""
    flows = list(run.flows.values())
    counts = [run.config.get(f"flow.{f['name']}.frames") for f in flows]
    if flows and all(counts):
        total = sum(int(n) for n in counts)
        return f"{total} frame{'s' if total != 1 else ''} in all"
    per_port = {}
    for f in flows:
        per_port[f.get("src_port")] = per_port.get(f.get("src_port"), 0) + f["offered_gbps"]
    if not per_port:
        return "nothing offered"
    most = max(per_port.values())
    return f"up to {most:g} Gb/s offered per source port ({len(per_port)} ports)"


def _backplane_parameters(run):
    c = run.config
    memory = c.get("backplane.memory", "?")
    if c.get("backplane.pause") in ("true", "on", "1", "yes"):
        high = c.get("backplane.xoff", "?")
        low = c.get("backplane.xon") or "High / 2"
        control = f"802.3x with High {high}, Low {low}"
    else:
        control = "no flow control"
    messages = sorted({c.get(f"flow.{f['name']}.message") or f["frame_size"] for f in run.flows.values()})
    return ", ".join([f"backplane switch of {c.get('backplane.ports', '?')} ports, memory {memory}", control,
                      f"{len(run.flows)} closed-loop stations", "messages " + ", ".join(messages),
                      f"seed {run.seed}", duration(run.sim_time_ps)])


def _ibft_parameters(run):
    c = run.config
    flows = list(run.flows.values())
    size = flows[0]["frame_size"] if flows else "?"
    scheme = c.get("ibft.scheme", "cyclic")
    if scheme == "opensm":
        scheme += f" (root {c.get('ibft.opensm_root', 'first')})"
    return ", ".join([f"IBFT({c.get('ibft.m', '8')}, {c.get('ibft.n', '3')}), {scheme} scheme",
                      f"{len(flows)} sources, groups of {c.get('ibft.group', '40%')}", f"{size} B messages",
                      c.get("ibft.forwarding", "cut_through").replace("_", " "), f"seed {run.seed}"])


def _ring_parameters(run):
    c = run.config
    on = ("true", "on", "1", "yes")
    mechanisms = []
    if c.get("ring.q_adaptive") in on:
        mechanisms.append("adaptive q")
    elif c.get("ring.q", "0") != "0":
        mechanisms.append(f"q = {c.get('ring.q')}")
    for key, name in (("ring.delayed_retry", "delayed retry"), ("ring.backoff", "back-off"),
                      ("ring.bridge_fc", "bridge flow control")):
        if c.get(key) in on and (key != "ring.bridge_fc" or c.get("ring.rings", "1") != "1"):
            mechanisms.append(name)
    rings = c.get("ring.rings", "1")
    return ", ".join([f"{rings} ring{'s' if rings != '1' else ''} of {c.get('ring.stations', '16')} stations",
                      f"groups {c.get('ring.groups', '3x5')} {c.get('ring.pattern', 'all-to-all')}",
                      f"{c.get('traffic.load_gbps') or '1'} Gb/s offered",
                      "flow control: " + (", ".join(mechanisms) or "none"), f"seed {run.seed}",
                      duration(run.sim_time_ps)])


def run_title(run, what):
    return f"{run.study} run {run.run_id}: {what}"
