"""Docs that cannot drift from the code (issue 40): the platforms named by
`fabricsim --help`, the guide's list of platforms and fabric-report's are
the same; docs/database.md's metric table is `fabricsim --list-metrics`;
docs/layout.md says what each top-level folder is for in one line each, then
names every folder of model/, platforms/, db/, fabricpy/, analysis/, sweep/
and search/, every Python module of the last four and every script; docs/model.md's Platform section names
every platform (issue 55), and no study page says its work is in progress. Run by CTest (Docs.Drift) with FABRICSIM_BINARY, or
directly: /usr/bin/python3 tests/docs/test_drift.py"""
import os
import re
import subprocess
import sys
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, SOURCE)
FABRICSIM = os.environ.get("FABRICSIM_BINARY", os.path.join(SOURCE, "build", "fabricsim"))


def read(path):
    with open(os.path.join(SOURCE, path)) as f:
        return f.read()


def section(path, heading):
    """The text of a document's `## heading` section, up to the next one."""
    text = read(path)
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def help_platforms():
    text = subprocess.run([FABRICSIM, "--help"], capture_output=True, text=True, check=True).stdout
    return re.search(r"\(key 'platform': ([a-z, ]+)\)", text).group(1).split(", ")


class PlatformLists(unittest.TestCase):
    def test_help_guide_and_report_name_the_same_platforms(self):
        from analysis.platform_reports import PLATFORMS
        in_help = help_platforms()
        in_guide = re.findall(r"^- `([a-z]+)` ", section("docs/guide.md", "Platforms"), re.M)
        self.assertEqual(in_guide, in_help, "docs/guide.md, ## Platforms")
        self.assertEqual(sorted(PLATFORMS), sorted(in_help), "analysis/platform_reports.py")


class PlatformSection(unittest.TestCase):
    def test_model_md_names_every_platform_and_a_bullet_each(self):
        in_help = help_platforms()
        platform = section("docs/model.md", "Platform")
        named = re.search(r"named by the key `platform` \(([^)]*)\)", platform).group(1)
        self.assertEqual(re.findall(r"`([a-z]+)`", named), in_help, "docs/model.md, ## Platform")
        bullets = re.findall(r"^- \*\*[^*]+\*\* \(`platforms/([a-z]+)/", platform, re.M)
        self.assertEqual(sorted(bullets), sorted(in_help), "docs/model.md, ## Platform: a bullet per platform")
        self.assertNotIn("both platforms", platform)


class StudyPages(unittest.TestCase):
    def test_no_study_page_says_its_work_is_in_progress(self):
        # A page states what was measured; what is left goes in its last
        # section, and an issue's state lives in the issue tracker.
        folder = os.path.join(SOURCE, "docs", "studies")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".md"):
                lines = [line for line in read(os.path.join("docs", "studies", name)).splitlines()
                         if "in progress" in line]
                self.assertEqual(lines, [], name)


    def test_every_study_page_states_its_status_and_links_back(self):
        # The title's last words are the page's status; the next line links back to the studies and the docs.
        folder = os.path.join(SOURCE, "docs", "studies")
        for name in sorted(os.listdir(folder)):
            if name.endswith(".md") and name != "README.md":
                lines = read(os.path.join("docs", "studies", name)).splitlines()
                self.assertRegex(lines[0], r"^# .+ \(measured\)$", name)
                self.assertTrue(lines[2].startswith("[All studies](README.md) · [Docs](../README.md)"), name)


class MetricTable(unittest.TestCase):
    def test_help_says_list_metrics_covers_totals_too(self):
        text = subprocess.run([FABRICSIM, "--help"], capture_output=True, text=True, check=True).stdout
        entry = " ".join(text[text.index("--list-metrics"):text.index("then exit", text.index("--list-metrics"))].split())
        self.assertIn("series", entry)
        self.assertIn("total", entry)

    def test_database_md_holds_the_metric_catalog(self):
        """docs/database.md's metric table is `fabricsim --list-metrics`
        (model/recording/metric_catalog.h); to refresh it, paste that
        output between the page's two metrics markers."""
        text = read("docs/database.md")
        start = text.index("<!-- metrics: fabricsim --list-metrics -->\n") + len("<!-- metrics: fabricsim --list-metrics -->\n")
        shown = text[start:text.index("<!-- end metrics -->", start)]
        printed = subprocess.run([FABRICSIM, "--list-metrics"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(shown.strip(), printed.strip(), "docs/database.md's metric table")


class Layout(unittest.TestCase):
    def blocks(self):
        """layout.md's code blocks: the one line per folder, then the folders in detail."""
        return re.findall(r"^```\n(.*?)\n```$", read("docs/layout.md"), re.S | re.M)

    def summary(self):
        return self.blocks()[0]

    def block(self):
        return self.blocks()[1]

    def test_each_top_level_folder_has_one_line(self):
        try:
            files = subprocess.run(["git", "-C", SOURCE, "ls-files"], capture_output=True, text=True,
                                   check=True).stdout.splitlines()
        except (OSError, subprocess.CalledProcessError):
            self.skipTest("not a git checkout: the folders are those git knows")
        folders = sorted({f.split("/")[0] for f in files if "/" in f and not f.startswith(".")})
        lines = self.summary().splitlines()
        named = [re.match(r"([a-z_]+)/ +\S", line).group(1) if re.match(r"([a-z_]+)/ +\S", line) else line
                 for line in lines]
        self.assertEqual(sorted(named), folders, "docs/layout.md: one line per folder, each 'folder/  what for'")
        for top in folders:
            self.assertIn(f"\n{top}/ ", "\n" + self.block(), f"docs/layout.md's detail does not describe {top}/")

    def entry(self, top):
        """The text of layout.md's entry for a top-level folder (e.g. 'model/')."""
        block = self.block()
        start = re.search(rf"^{re.escape(top)} ", block, re.M).start()  # the line that begins with it
        following = re.search(r"^[a-z]+/ ", block[start + len(top):], re.M)
        return block[start:start + len(top) + (following.start() if following else len(block))]

    def test_every_folder_is_named(self):
        for top in ("model", "platforms", "db", "fabricpy", "analysis", "sweep", "search"):
            entry = self.entry(top + "/")
            for name in sorted(os.listdir(os.path.join(SOURCE, top))):
                if os.path.isdir(os.path.join(SOURCE, top, name)) and not name.startswith(("_", ".")):
                    self.assertRegex(entry, rf"\b{re.escape(name)}\b", f"docs/layout.md does not name {top}/{name}")

    def test_every_python_module_is_named(self):
        for top in ("fabricpy", "analysis", "sweep", "search"):
            entry = self.entry(top + "/")
            for name in sorted(os.listdir(os.path.join(SOURCE, top))):
                if name.endswith(".py") and not name.startswith("_"):
                    self.assertRegex(entry, rf"\b{re.escape(name[:-3])}\b", f"docs/layout.md does not name {top}/{name}")

    # The Python packages a package may import (docs/layout.md, "Dependencies").
    PYTHON_IMPORTS = {"fabricpy": set(), "sweep": {"fabricpy"}, "search": {"fabricpy", "sweep"},
                      "analysis": {"fabricpy"}}

    def test_python_imports_run_one_way(self):
        packages = set(self.PYTHON_IMPORTS)
        pattern = re.compile(r"^\s*(?:from|import)\s+(" + "|".join(packages) + r")\b", re.M)
        for top, allowed in self.PYTHON_IMPORTS.items():
            for name in sorted(os.listdir(os.path.join(SOURCE, top))):
                if not name.endswith(".py"):
                    continue
                for imported in pattern.findall(read(os.path.join(top, name))):
                    self.assertIn(imported, allowed | {top}, f"{top}/{name} imports {imported}/ against the direction")

    def test_every_script_is_named(self):
        entry = self.entry("scripts/")
        for name in sorted(os.listdir(os.path.join(SOURCE, "scripts"))):
            stem = re.sub(r"\.(sh|py)$", "", name)
            self.assertRegex(entry, rf"(?<![\w-]){re.escape(stem)}(?![\w-])", f"docs/layout.md does not name scripts/{name}")


if __name__ == "__main__":
    unittest.main()
