#!/usr/bin/python3
"""scripts/rtl-profile's reading (analysis/rtl_profile.py), on perf's and
fabricsim's own text: samples grouped by verilated variant and by
Verilator's part (ico: input-combinational, nba: clocked, eval: the rest),
divided by the run's calls and edges of that block. The perf run itself is
shown in docs/rtl.md; this test needs no perf.

Run: /usr/bin/python3 tests/rtl/rtl_profile_test.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
from analysis.rtl_profile import activity, shares, table  # noqa: E402

REPORT = """# Samples: 3K of event 'cpu-clock'
     9.60%  [.] fabric::TimingWheel<fabric::EventQueue::Wake>::advance
     7.28%  [.] Vfabric_packet_cache_16___024root___ico_sequent__TOP__0
     5.45%  [.] Vfabric_packet_cache_16___024root___nba_sequent__TOP__0
     2.69%  [.] Vfabric_packet_cache_16___024root___eval
     1.00%  [.] Vfabric_sync_cam_24___024root___nba_sequent__TOP__0
     0.25%  [.] Vfabric_sync_cam_24___024root___ico_sequent__TOP__0
"""
SUMMARY = """  simulated 2.000 ms in 2.00 s wall on 1 thread: 58000 frames delivered per wall second
  RTL sync CAMs: 100000 commands and 100000 queries (1 and 2 per simulated ms), 50000 clock edges
  RTL packet caches: 1000000 commands and 3000000 queries (5 and 15 per simulated ms), 1000000 clock edges
"""


class RtlProfile(unittest.TestCase):
    def test_samples_by_variant_and_part(self):
        by = shares(REPORT)
        self.assertEqual(set(by), {"Vfabric_packet_cache_16", "Vfabric_sync_cam_24"})
        self.assertAlmostEqual(by["Vfabric_packet_cache_16"]["ico"], 7.28)
        self.assertAlmostEqual(by["Vfabric_packet_cache_16"]["nba"], 5.45)
        self.assertAlmostEqual(by["Vfabric_packet_cache_16"]["eval"], 2.69)
        self.assertAlmostEqual(by["Vfabric_sync_cam_24"]["ico"], 0.25)

    def test_cost_per_call_and_per_edge(self):
        counts, wall = activity(SUMMARY)
        self.assertEqual(wall, 2.0)
        self.assertEqual(counts["sync CAMs"], (100000, 100000, 50000))
        text = table(shares(REPORT), counts, wall)
        # The cache: 15.42 % of 2 s over 4,000,000 calls and 1,000,000 edges.
        self.assertIn("| Vfabric_packet_cache_16 | 15.4 % | 7.3 / 5.5 / 2.7 % | 4000000 | 1000000 | 77 | 308 |", text)
        # The sync CAM: 1.25 % of 2 s over 200,000 calls and 50,000 edges.
        self.assertIn("| Vfabric_sync_cam_24 | 1.2 % | 0.2 / 1.0 / 0.0 % | 200000 | 50000 | 125 | 500 |", text)
        self.assertLess(text.index("packet_cache"), text.index("sync_cam"), "the costliest block first")


if __name__ == "__main__":
    unittest.main()
