#!/usr/bin/python3
"""Docs.Links: every relative link, image and anchor in README.md, docs/,
model/**/README.md and db/README.md resolves (tests/docs/check_links.py),
and the checker does report what is broken."""
import io
import os
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_links  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(textwrap.dedent(text).lstrip("\n"))


class DocsLinks(unittest.TestCase):
    def test_repository_docs_have_no_broken_link(self):
        files = check_links.markdown_files(ROOT)
        self.assertIn("README.md", files)
        self.assertTrue(any(f.startswith("docs" + os.sep) for f in files), files)
        broken = check_links.find_broken(ROOT)
        self.assertEqual([], broken, "broken links:\n" + "\n".join(
            f"{b.file}:{b.line}: {b.target} ({b.reason})" for b in broken))

    def test_broken_link_image_and_anchor_are_reported(self):
        with tempfile.TemporaryDirectory() as root:
            write(root, "README.md", """
                # Tool

                See [the guide](docs/guide.md), [its options](docs/guide.md#the-options-table),
                [a folder](docs/) and [the web](https://example.com/missing.md).
                A [broken link](docs/missing.md) and ![a broken image](figures/missing.png).
                An [anchor that is not there](docs/guide.md#no-such-heading) and
                [one here](#tool).

                ```sh
                cat [not a link](fenced/missing.md)
                ```

                Inline code: `[not a link](inline/missing.md)` is not a link either.
                """)
            write(root, "docs/guide.md", """
                # Guide

                ## The options table

                Back to the [README](../README.md#tool); [itself](#guide); a picture:
                ![ok](../figures/ok.png)
                """)
            write(root, "figures/ok.png", "not really a PNG")
            write(root, "model/leaf/README.md", """
                # Leaf

                [A stale link](../../docs/gone.md)
                """)

            broken = check_links.find_broken(root)
            reported = [(b.file, b.line, b.target) for b in broken]
            self.assertEqual([
                ("README.md", 5, "docs/missing.md"),
                ("README.md", 5, "figures/missing.png"),
                ("README.md", 6, "docs/guide.md#no-such-heading"),
                (os.path.join("model", "leaf", "README.md"), 3, "../../docs/gone.md"),
            ], reported)

            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                status = check_links.main([root])
            self.assertEqual(1, status)
            self.assertIn("README.md:5: docs/missing.md\n", out.getvalue())
            self.assertIn("README.md:5: figures/missing.png\n", out.getvalue())
            self.assertIn("README.md:6: docs/guide.md#no-such-heading\n", out.getvalue())

            # Mended, the same tree passes.
            write(root, "docs/missing.md", "# Missing no more\n")
            write(root, "figures/missing.png", "not really a PNG")
            write(root, "docs/guide.md", "# Guide\n\n## The options table\n\n## No such heading\n")
            write(root, "model/leaf/README.md", "# Leaf\n\n[Now there](../../docs/missing.md)\n")
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                self.assertEqual(0, check_links.main([root]))


if __name__ == "__main__":
    unittest.main()
