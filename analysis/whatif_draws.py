"""The what-if campaign's draws: a small random fabric and its traffic (a
what-if off perm640), the multicast engine's keys, and the other
platforms' (analysis/whatif_campaign.py)."""
import math


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
