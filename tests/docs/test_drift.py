"""Docs that cannot drift from the code (issue 40): the platforms named by
`fabricsim --help`, the guide's list of platforms and fabric-report's are
the same; every folder of model/, platforms/ and db/ and every script is
named in docs/layout.md. Run by CTest (Docs.Drift) with FABRICSIM_BINARY, or
directly: /usr/bin/python3 tests/docs/test_drift.py"""
import os
import re
import subprocess
import sys
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "db"))
FABRICSIM = os.environ.get("FABRICSIM_BINARY", os.path.join(SOURCE, "build", "fabricsim"))


def read(path):
    with open(os.path.join(SOURCE, path)) as f:
        return f.read()


def help_platforms():
    text = subprocess.run([FABRICSIM, "--help"], capture_output=True, text=True, check=True).stdout
    return re.search(r"\(key 'platform': ([a-z, ]+)\)", text).group(1).split(", ")


class PlatformLists(unittest.TestCase):
    def test_help_guide_and_report_name_the_same_platforms(self):
        from report.platform_reports import PLATFORMS
        in_help = help_platforms()
        guide = read("docs/guide.md")
        section = guide[guide.index("\n## Platforms\n"):]
        section = section[:section.index("\n## ", 1)]
        in_guide = re.findall(r"^- `([a-z]+)` ", section, re.M)
        self.assertEqual(in_guide, in_help, "docs/guide.md, ## Platforms")
        self.assertEqual(sorted(PLATFORMS), sorted(in_help), "db/report/platform_reports.py")


class Layout(unittest.TestCase):
    def block(self):
        text = read("docs/layout.md")
        return text[text.index("```\n") + 4:text.index("\n```", text.index("```\n"))]

    def entry(self, top):
        """The text of layout.md's entry for a top-level folder (e.g. 'model/')."""
        block = self.block()
        start = block.index(top)
        following = re.search(r"^[a-z]+/ ", block[start + len(top):], re.M)
        return block[start:start + len(top) + (following.start() if following else len(block))]

    def test_every_folder_is_named(self):
        for top in ("model", "platforms", "db"):
            entry = self.entry(top + "/")
            for name in sorted(os.listdir(os.path.join(SOURCE, top))):
                if os.path.isdir(os.path.join(SOURCE, top, name)) and not name.startswith(("_", ".")):
                    self.assertRegex(entry, rf"\b{re.escape(name)}\b", f"docs/layout.md does not name {top}/{name}")

    def test_every_script_is_named(self):
        entry = self.entry("scripts/")
        for name in sorted(os.listdir(os.path.join(SOURCE, "scripts"))):
            stem = re.sub(r"\.(sh|py)$", "", name)
            self.assertRegex(entry, rf"(?<![\w-]){re.escape(stem)}(?![\w-])", f"docs/layout.md does not name scripts/{name}")


if __name__ == "__main__":
    unittest.main()
