"""What a run's report holds, per platform: the report's side of the C++
`Platform` (platforms/common/platform.h). Each platform names the sections
of its runs' reports, in order, the words they use, its warm-up and the
section of the whole file that its study tools add (E13's speedups, E14's
ring table). No platform is the default: a run of a platform this file does
not know is refused with the platforms it knows."""
from analysis.ibft_table import section as ibft_file_section
from fabricpy.option_values import parse_duration_ps, parse_rate_gbps
from analysis.ring_table import section as ring_file_section
from fabricpy.errors import ReportError
from fabricpy import rates

# Every section a run's report can hold (RunReport draws each):
#   throughput   receive throughput per subflow over time, and its mean after the warm-up
#   latency      latency percentiles per flow (and per surrogate level where replication has levels)
#   fairness     Jain's index of the subflows' received bytes per window
#   drops        drops by reason
#   pause        802.3x PAUSE per port and priority
#   cnm          QCN's congestion notifications per flow
#   cache        the multicast packet cache's hit rate
#   backplane    the backplane's throughput, latency and PAUSE per link, and its memory
#   completion   a one-shot workload's completion time and deliveries
#   occupancy    sampled queue occupancy over time
#   jobs         closed-loop jobs: time, algbw, busbw, slowest step and rank, each step's duration (none without jobs)
SECTIONS = ("throughput", "latency", "fairness", "drops", "pause", "cnm", "cache", "backplane", "completion",
            "occupancy", "jobs")


class PlatformReport:
    name = None
    sections = ()
    # Its word for what its workload sends, as fabricsim's summary says it
    # (Platform::vocabulary, platforms/common/vocabulary.h).
    unit = "frame"
    # Where a latency starts and ends.
    latency_span = None
    # Latency per surrogate level (the fabric's replication trees).
    latency_by_level = False
    # Sampled metrics the occupancy section may draw, in this order (at most three).
    occupancy_metrics = ()
    # A limit sampled beside an occupancy, drawn on its panel as a limit: {occupancy metric: limit metric}.
    occupancy_limits = {}

    @property
    def units(self):
        return self.unit + "s"

    def count(self, n):
        """'1 frame', '6 frames'."""
        return f"{n} {self.unit if n == 1 else self.units}"

    def line_gbps(self, run):
        """The receiving ports' line rate (a reference line), or None."""
        return None

    def warmup_ps(self, run, asked_ps):
        """What mean throughput skips: --warmup if given, else the platform's rule."""
        return rates.warmup_ps(run.sim_time_ps, asked_ps if asked_ps is not None else 0)

    def file_section(self, conn, out_dir):
        """The section of the whole file (its study's table and plots), or None."""
        return None


class FabricReport(PlatformReport):
    name = "fabric"
    sections = ("jobs", "throughput", "latency", "fairness", "drops", "pause", "cnm", "cache", "occupancy")
    latency_span = "From creation at the source CNA to delivery at the destination CNA"
    latency_by_level = True
    occupancy_metrics = ("ingress_bytes", "egress_bytes", "cache_entries")

    def line_gbps(self, run):
        return parse_rate_gbps(run.config.get("topology.user_port_gbps"))

    def warmup_ps(self, run, asked_ps):
        # experiments.md: skip 0.5 ms where a steady state is needed (runs of 1 ms or more).
        return rates.warmup_ps(run.sim_time_ps, asked_ps)


class BackplaneReport(PlatformReport):
    name = "backplane"
    sections = ("throughput", "latency", "fairness", "drops", "pause", "backplane", "occupancy")
    latency_span = "From the first byte out of the source application to the last byte into the sink"
    occupancy_metrics = ("memory_bytes",)

    def line_gbps(self, run):
        return parse_rate_gbps(run.config.get("backplane.link_gbps"))

    def warmup_ps(self, run, asked_ps):
        if asked_ps is None:  # the run's own warm-up
            asked_ps = parse_duration_ps(run.config.get("backplane.warmup", "0")) or 0
        return rates.warmup_ps(run.sim_time_ps, asked_ps)


class IbftReport(PlatformReport):
    """A one-shot multicast: what counts is when it completes; rates over
    time, fairness between subflows and a warm-up do not apply."""
    name = "ibft"
    unit = "message"
    sections = ("completion", "latency", "drops")
    latency_span = "From the message's start at its source node to the packet's last byte at its destination node"

    def file_section(self, conn, out_dir):
        return ibft_file_section(conn, out_dir)


class RingReport(PlatformReport):
    name = "ring"
    unit = "packet"
    sections = ("throughput", "latency", "drops", "occupancy")
    latency_span = "From the packet's arrival at its source station's host to its delivery at a member station"
    occupancy_metrics = ("spq_mean",)
    occupancy_limits = {"spq_mean": "q_mean"}

    def file_section(self, conn, out_dir):
        return ring_file_section(conn, out_dir)


PLATFORMS = {p.name: p for p in (FabricReport(), BackplaneReport(), IbftReport(), RingReport())}


def for_run(run):
    try:
        return PLATFORMS[run.platform]
    except KeyError:
        raise ReportError(f"run {run.run_id} is of platform '{run.platform}', which this report does not know "
                          f"(it knows {', '.join(PLATFORMS)}); a newer fabric-report may")
