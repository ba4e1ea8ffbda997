"""docs/database.md's worked examples ("Four questions, answered in SQL")
are re-run as printed: the fabricsim commands that make the database, then
each sqlite3 command, whose output must be the text the page shows (lines
compared without trailing blanks). A block of output with no command of its
own before it ("The same query with `@run 2`") is the previous command with
its run changed. Run by CTest (Docs.DatabaseExamples) with FABRICSIM_BINARY,
or directly: /usr/bin/python3 tests/docs/test_database_examples.py; with
--update it writes what the commands print now into the page's output
blocks (then read the prose around them again)."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FABRICSIM = os.environ.get("FABRICSIM_BINARY", os.path.join(SOURCE, "build", "fabricsim"))
SECTION = "## Four questions, answered in SQL"


PAGE = os.path.join(SOURCE, "docs", "database.md")


def blocks():
    """(language, text, prose before it, (start, end) of the text in the
    page) of each fenced block of the section, in order."""
    with open(PAGE) as f:
        text = f.read()
    start = text.index(SECTION)
    end = text.find("\n## ", start + 1)
    section = text[start:end if end >= 0 else len(text)]
    found, last = [], 0
    for m in re.finditer(r"^```([a-z]*)\n(.*?)^```$", section, re.M | re.S):
        found.append((m.group(1), m.group(2), section[last:m.start()], (start + m.start(2), start + m.end(2))))
        last = m.end()
    return found


def run_examples(found, check):
    """Runs the section's commands in a scratch folder; check(command,
    printed, shown, span) for each output block. Returns how many."""
    with tempfile.TemporaryDirectory() as d:
        os.symlink(os.path.join(SOURCE, "db"), os.path.join(d, "db"))
        os.makedirs(os.path.join(d, "build"))
        os.symlink(FABRICSIM, os.path.join(d, "build", "fabricsim"))
        shell = lambda command: subprocess.run(["bash", "-c", command], cwd=d, capture_output=True,  # noqa: E731
                                               text=True, timeout=600)
        language, setup, _, _ = found[0]
        made = shell(setup)
        if language != "sh" or made.returncode != 0:
            raise AssertionError(f"the section's first block must make the database: {made.stderr}")
        command, compared = None, 0
        for language, text, prose, span in found[1:]:
            if language == "sh":
                command = text
                continue
            if command is None:
                raise AssertionError("an output block before any command")
            if "`@run 2`" in prose and "@run 1" in command:
                command = command.replace("@run 1", "@run 2")
            result = shell(command)
            if result.returncode != 0:
                raise AssertionError(f"{command.strip()}: {result.stderr}")
            check(command, result.stdout, text, span)
            compared += 1
        return compared


def lines(text):
    return [line.rstrip() for line in text.strip("\n").splitlines()]


class DatabaseExamples(unittest.TestCase):
    def test_every_example_prints_what_the_page_shows(self):
        found = blocks()
        self.assertGreater(len(found), 6)
        compared = run_examples(found, lambda command, printed, shown, _: self.assertEqual(
            lines(printed), lines(shown), f"docs/database.md: {command.strip()}"))
        self.assertGreaterEqual(compared, 7)

    def test_a_sum_per_spine_needs_no_string_function(self):
        """Issue 55: the section sums per spine from the entities' ends
        (entities.to_kind, to_id), with no string work on the names (its
        output is checked with the others above)."""
        per_spine = [text for language, text, _, _ in blocks()
                     if language == "sh" and "to_kind = 'spine'" in text]
        self.assertEqual(len(per_spine), 1, "docs/database.md: no (or more than one) sum per spine by to_kind")
        for function in ("substr", "instr", "glob", "like", "replace", "||"):
            self.assertNotIn(function, per_spine[0].lower())


def update():
    """Writes what the commands print now into the page's output blocks."""
    with open(PAGE) as f:
        page = f.read()
    spans = []
    run_examples(blocks(), lambda _command, printed, _shown, span: spans.append((span, printed)))
    for (start, end), printed in reversed(spans):
        page = page[:start] + "\n".join(lines(printed)) + "\n" + page[end:]
    with open(PAGE, "w") as f:
        f.write(page)
    print(f"docs/database.md: {len(spans)} output blocks written")


if __name__ == "__main__":
    if "--update" in sys.argv:
        update()
    else:
        unittest.main()
