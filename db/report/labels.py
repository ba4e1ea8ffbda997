"""Words and units for titles, axes and tables."""


def duration(ps):
    """A time in the largest unit that keeps it readable: '1 ms', '70 us'."""
    for unit, scale in (("s", 10**12), ("ms", 10**9), ("us", 10**6), ("ns", 10**3)):
        if ps >= scale:
            return f"{ps / scale:g} {unit}"
    return f"{ps} ps"


def key_parameters(run):
    """One line naming what a reader needs to tell this run from another:
    the traffic, the fabric's size and what differs from a plain run."""
    flows = list(run.flows.values())
    kinds = sorted({f["kind"] for f in flows})
    sizes = sorted({f["frame_size"] for f in flows})
    offered = sum(f["offered_gbps"] for f in flows)
    size_text = ", ".join(sizes[:3]) + (", ..." if len(sizes) > 3 else "")
    c = run.config
    fabric = f"{run.user_ports} ports on {run.leaves} leaves"
    parts = [f"{len(flows)} {'/'.join(kinds) or 'no'} flows", f"frames {size_text} B",
             f"{offered:g} Gb/s offered", fabric, f"seed {run.seed}", duration(run.sim_time_ps)]
    pattern = c.get("traffic.pattern")
    if pattern and pattern != "none":
        # An unset load is the ports' line rate (saturating).
        load = c.get("traffic.load_gbps") or c.get("topology.user_port_gbps", "?")
        parts.insert(0, f"{pattern} at {load} Gb/s per port")
    return ", ".join(parts)


def run_title(run, what):
    return f"{run.study} run {run.run_id}: {what}"
