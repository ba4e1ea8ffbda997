"""Issue 55: one vocabulary per platform. Each platform's study is run as a
user runs it; its summary (fabricsim's output), its report (fabric-report)
and its table tool say the platform's own words and none that belongs to
another platform (nor the retired 'attempts', which the ring calls
tickets). Option values and SQL names in code spans (`--record frames`)
are the tool's, not a platform's, and are not read."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from report_fixture import FABRICSIM, SOURCE, report, run_tool

# Words that belong to one platform only (whole words, any case): what it
# sends, its parts and its mechanisms.
OWN_WORDS = {
    "fabric": ["leaf", "leaves", "spine", "spines", "CNM", "CNMs", "QCN", "VOQ", "VOQs", "surrogate"],
    "backplane": ["backplane", "XOFF", "XON"],
    "ibft": ["IBFT", "OpenSM", "fat tree", "VL", "VLs"],
    "ring": ["ring", "rings", "ticket", "tickets", "retract", "retracts", "SPQ", "segment", "segments"],
}
# What each platform's workload sends (Platform::vocabulary): a platform that
# sends frames never says packet's or message's word for its unit, and back.
UNIT_WORDS = {"fabric": [], "backplane": ["packet", "packets"], "ibft": ["frame", "frames"],
              "ring": ["frame", "frames"]}
NOBODYS_WORDS = ["attempt", "attempts"]
# (platform, fabricsim arguments, table tool or None)
STUDIES = (
    ("fabric", ["--study", "perm640", "--set", "topology.racks=1", "--set", "topology.leaves=4", "--time", "40us"],
     None),
    ("backplane", ["--study", "E12a", "--time", "3ms", "--set", "backplane.warmup=1ms"], "backplane-table"),
    ("ibft", ["--study", "E13", "--set", "ibft.sources=1"], "ibft-table"),
    ("ring", ["--study", "E14", "--time", "2ms"], "ring-table"),
)


def prose(text):
    """The text without code spans, option values and file names: the words a reader reads."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"--record frames|log level frames|\S+\.(png|csv|sql|db)\b", " ", text)
    return text


def foreign_words(platform, text):
    """The words of `text` that are another platform's, or nobody's."""
    words = NOBODYS_WORDS + UNIT_WORDS[platform] + [w for other, own in OWN_WORDS.items() if other != platform
                                                    for w in own]
    body = prose(text)
    return sorted({w for w in words if re.search(rf"(?<![\w.]){re.escape(w)}(?![\w.])", body,
                                                 flags=re.IGNORECASE if len(w) > 3 else 0)})


class Vocabulary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="vocabulary_")
        cls.texts = {}
        for platform, args, tool in STUDIES:
            db = os.path.join(cls.dir, f"{platform}.db")
            run = subprocess.run([FABRICSIM, "--db", db, *args, "--record", "frames"], capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            out = os.path.join(cls.dir, f"{platform}_report")
            status, stdout, stderr = report(db, "--out", out)
            assert status == 0, stderr
            with open(os.path.join(out, "report.md")) as f:
                texts = {"summary": run.stdout, "report": f.read()}
            if tool:
                result = run_tool(os.path.join(SOURCE, "scripts", tool), db)
                assert result.returncode == 0, result.stderr
                texts[tool] = result.stdout
            cls.texts[platform] = texts

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_no_platform_says_another_platforms_words(self):
        for platform, texts in self.texts.items():
            for where, text in texts.items():
                with self.subTest(platform=platform, where=where):
                    self.assertEqual(foreign_words(platform, text), [], text)

    def test_each_platform_says_its_own_unit(self):
        unit = {"fabric": "frames", "backplane": "frames", "ibft": "messages", "ring": "packets"}
        for platform, texts in self.texts.items():
            self.assertIn(f"  {unit[platform]}: ", texts["summary"], platform)
            self.assertIn(f"per delivered {unit[platform][:-1]}", texts["summary"], platform)

    def test_the_check_finds_a_foreign_word(self):
        self.assertEqual(foreign_words("ring", "1.350 attempts and 0.05 retracts per frame"), ["attempts", "frame"])
        self.assertEqual(foreign_words("ibft", "the spine's VOQ"), ["VOQ", "spine"])
        self.assertEqual(foreign_words("fabric", "run with `--record frames`; 3 tickets"), ["tickets"])
