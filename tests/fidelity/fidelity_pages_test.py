#!/usr/bin/python3
"""analysis/fidelity_pages.py: a study page's generated block holds its
checks' rows, in the suite's order, and nothing else of the page moves; a
page some of whose checks did not run is left as it was.

usage: fidelity_pages_test.py"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from analysis import fidelity_pages  # noqa: E402


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")


with tempfile.TemporaryDirectory() as d:
    page = os.path.join(d, "E3-E4.md")
    other = os.path.join(d, "E11.md")
    before = f"# E3\n\ntext above\n\n{fidelity_pages.BEGIN}\nold table\n{fidelity_pages.END}\n\ntext below\n"
    for p in (page, other):
        with open(p, "w") as f:
            f.write(before)
    rows = {"E3a": ["E3a", "b", "e", "1", "agrees"], "E4a": ["E4a", "b", "e", "2", "DISAGREES"],
            "E11": ["E11", "b", "e", "3", "agrees"]}
    written, left = fidelity_pages.update(d, ["E3a", "E4a", "E11", "E11-9022"], rows, "2026-11-29")
    check(written == ["E3-E4.md"] and left == ["E11.md"], f"written {written}, left {left}")
    with open(page) as f:
        text = f.read()
    check(text.startswith("# E3\n\ntext above\n\n") and text.endswith("\n\ntext below\n"), "the rest of the page kept")
    check("old table" not in text and text.index("| E3a |") < text.index("| E4a |"), "the rows, in order")
    check("| E4a | b | e | 2 | DISAGREES |" in text and "2026-11-29" in text, "a row as given, and the date")
    with open(other) as f:
        check(f.read() == before, "a page whose checks did not all run is left as it was")
    check(fidelity_pages.page_of("E14rings-4") == "E14.md" and fidelity_pages.page_of("E10-512") == "E9-E10.md",
          "pages by experiment number")
print("ok")
