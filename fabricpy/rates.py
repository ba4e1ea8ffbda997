"""The figures' rate definitions that analysis/ and search/ both read:
a frame's wire overhead, bytes over time in Gb/s and the warm-up a mean
throughput skips (experiments.md)."""

# Preamble, start delimiter and inter-frame gap: the bytes a frame takes on
# an Ethernet wire beyond its own.
WIRE_OVERHEAD_BYTES = 20


def frame_share(frame_bytes):
    """The share of a wire rate that a frame's own bytes are."""
    return frame_bytes / (frame_bytes + WIRE_OVERHEAD_BYTES)


def gbps(byte_count, duration_ps):
    """Bytes over a duration in Gb/s (1 bit/ps = 1000 Gb/s)."""
    return byte_count * 8000.0 / duration_ps


def warmup_ps(sim_time_ps, requested_ps=None):
    """What mean throughput skips: as requested, else 0.5 ms for runs of
    1 ms or more (experiments.md: skip it where a steady state is needed),
    else nothing; never the whole run."""
    if requested_ps is None:
        requested_ps = 500_000_000 if sim_time_ps >= 1_000_000_000 else 0
    return min(requested_ps, max(sim_time_ps - 1, 0))
