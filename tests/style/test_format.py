#!/usr/bin/python3
"""Style.Format: every C++ file is in the house style (.clang-format,
scripts/format-check), and the check does find a file that is not."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "format-check")


def check(*files):
    return subprocess.run([CHECK, *files], cwd=ROOT, capture_output=True, text=True)


class StyleFormat(unittest.TestCase):
    def test_every_cpp_file_is_formatted(self):
        r = check()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("in the house style", r.stdout)

    def test_a_misformatted_file_is_found(self):
        # Inside the repository, so that .clang-format applies to it.
        with tempfile.NamedTemporaryFile("w", suffix=".cpp", dir=os.path.join(ROOT, "tests", "style")) as f:
            f.write("int  f( int x ){return x;}\n")
            f.flush()
            r = check(f.name)
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("format-check --fix", r.stderr)
            formatted = subprocess.run(["clang-format", f.name], cwd=ROOT, capture_output=True, text=True).stdout
            self.assertEqual(formatted, "int f(int x) { return x; }\n")


if __name__ == "__main__":
    unittest.main()
