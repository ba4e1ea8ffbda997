"""The programs that read `fabricsim --list-params` read every key (issue
55): the listing for a reader is wrapped to the terminal, so the tools read
`--list-params --format tsv`, one line per key. Each reader below must find
exactly the keys the listing for a reader shows, with their type, unit,
description and bounds: fabricpy/param_descriptions.py (figure labels,
fabricsim-search's key types) and the configuration fuzzer's table
(tests/fuzz/param_table.py).

FABRICSIM_BINARY names the simulator. Run: /usr/bin/python3 tests/config/list_params_readers_test.py"""
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "fuzz"))
from fabricpy import param_descriptions  # noqa: E402
from param_table import read_params  # noqa: E402

BINARY = os.path.abspath(os.environ.get("FABRICSIM_BINARY", os.path.join(ROOT, "build", "fabricsim")))


def listed_keys(width):
    """The keys of the listing for a reader at `width` columns: the first word of each line at the margin."""
    env = dict(os.environ, COLUMNS=str(width))
    text = subprocess.run([BINARY, "--list-params"], env=env, capture_output=True, text=True, check=True).stdout
    lines = text.splitlines()
    for line in lines:
        assert len(line) <= width, f"{len(line)} columns at COLUMNS={width}: {line}"
    return {line.split()[0] for line in lines if line and line[0] not in " #" and not line.startswith("KEY")}


class Readers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.keys = listed_keys(80)
        assert len(cls.keys) > 200, len(cls.keys)

    def test_param_descriptions_reads_every_key(self):
        table = param_descriptions.keys(BINARY)
        self.assertEqual(set(table), self.keys)
        self.assertEqual(table["leaf.clock_mhz"][:2], ("real", "MHz"))
        self.assertEqual(table["flow.*.src"][0], "integer")
        description = table["leaf.control.coalesce"][2]
        self.assertGreater(len(description), 300)  # whole, not one wrapped line of it
        self.assertTrue(description.startswith("which of a VOQ's control messages"), description)
        self.assertTrue(param_descriptions.label("leaf.cache.entries").startswith("leaf.cache.entries: "))

    def test_the_fuzzers_table_reads_every_key_and_bound(self):
        params = {p.key: p for p in read_params(BINARY, dict(os.environ))}
        self.assertEqual(set(params), self.keys)
        clock = params["leaf.clock_mhz"]
        self.assertEqual((clock.type, clock.default, clock.unit, clock.platform), ("real", "454", "MHz", "fabric"))
        self.assertTrue(clock.min is not None and clock.max is not None, clock)
        self.assertEqual(params["sim.time"].platform, "")
        self.assertEqual(params["sim.time"].bound_unit, "ps")
        self.assertIn("poisson", params["flow.*.arrival"].choices)
        self.assertTrue(any(p.platform == "ring" for p in params.values()))

    def test_every_width_lists_the_same_keys(self):
        for width in (40, 100, 200):
            self.assertEqual(listed_keys(width), self.keys, width)


if __name__ == "__main__":
    unittest.main(verbosity=2)
