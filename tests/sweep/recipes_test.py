#!/usr/bin/python3
"""The study families' recipes (platforms/studies/FAMILY.recipe, issue 57)
that scripts/sweep runs: every recipe reads, names studies that exist and
tools that are scripts, its page names `scripts/sweep FAMILY`; and
`scripts/sweep --commands` gives, for E2 and JOBS, the very commands the sh
script that held the recipes before issue 57 ran (with a DB and options, so
that the derived databases and plots and the user's options are covered).
No simulator runs. CTest: Sweep.Recipes; or /usr/bin/python3 tests/sweep/recipes_test.py"""
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, ROOT)
from sweep import recipes  # noqa: E402

SWEEP = os.path.join(ROOT, "scripts", "sweep")
STUDIES = os.path.join(ROOT, "platforms", "studies")
FAMILIES = ["BER", "E1", "E2", "E9", "E10", "E10lossless", "E12", "E13", "E14", "JOBS"]

# What the sh script ran for `FABRICSIM=/opt/fs scripts/sweep FAMILY my/x.db --jobs 3`.
OCCUPANCY = ("--time 10ms --sweep inherit=false --sweep leaf.cache.entries=128,128,32 "
             "--sweep leaf.sync.enable=false,true,false --sweep together=leaf.cache.entries,leaf.sync.enable")
BEFORE = {
    "E2": f"""scripts/fabricsim-sweep --db my/x.db --fabricsim /opt/fs E2a --jobs 3
scripts/fabricsim-sweep --db my/x.db --fabricsim /opt/fs E2b --jobs 3
echo 'sync false:'
scripts/sweep-table my/x.db --rows leaf.cache.entries --cols flow.f1.frame_size --where leaf.sync.enable=false
echo 'sync true:'
scripts/sweep-table my/x.db --rows leaf.cache.entries --cols flow.f1.frame_size --where leaf.sync.enable=true
scripts/fabricsim-sweep --db my/x-occupancy.db --fabricsim /opt/fs E2a {OCCUPANCY} --jobs 3
scripts/sweep-table my/x-occupancy.db --rows leaf.cache.entries --cols leaf.sync.enable --occupancy my/x-occupancy.png \
--label leaf.cache.entries --label leaf.sync.enable
""",
    "JOBS": "".join(f"scripts/fabricsim-sweep --db my/x.db --fabricsim /opt/fs {s} --record summary --jobs 3\n"
                    for s in ("allreduce8", "allreduce64", "allreduce640", "allgather64", "alltoall64",
                              "alltoall64bg", "incast63")) + """\
scripts/fabricsim-sweep --db my/x.db --fabricsim /opt/fs allgather64 --record summary \
--set multicast.leaf_order=spread --sweep job.ag.algorithm=multicast --jobs 3
scripts/job-table my/x.db
scripts/job-table my/x.db --where job.ar.collective=allreduce --plot my/x-allreduce | tail -n 1
scripts/job-table my/x.db --where job.ag.collective=allgather --plot my/x-allgather | tail -n 1
""",
}


def sweep(*args, fabricsim="/opt/fs"):
    env = {k: v for k, v in os.environ.items() if k != "FABRICSIM_STUDY_DIR"}
    env["FABRICSIM"] = fabricsim
    return subprocess.run([SWEEP, *args], capture_output=True, text=True, env=env, timeout=60)


class Recipes(unittest.TestCase):
    def test_the_families(self):
        self.assertEqual(recipes.families(), FAMILIES)

    def test_every_recipe_names_studies_and_tools_that_exist(self):
        for family in FAMILIES:
            recipe = recipes.read_recipe(family)
            self.assertTrue(recipe.title.startswith(family + ": "), family)
            for line, verb, words in recipe.steps:
                where = f"{family}.recipe:{line}"
                if verb == "sweep":
                    self.assertTrue(os.path.isfile(os.path.join(STUDIES, words[0] + ".ini")), where)
                elif verb.startswith("tool"):
                    self.assertTrue(os.access(os.path.join(ROOT, "scripts", words[0]), os.X_OK), where)
                    self.assertIn("{db}", words, where)

    def test_the_commands_are_those_of_the_script_before(self):
        for family, before in BEFORE.items():
            result = sweep("--commands", family, "my/x.db", "--jobs", "3")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout, before, family)

    def test_the_default_database_and_binary(self):
        result = sweep("--commands", "E1", fabricsim="")
        self.assertEqual(result.stdout, "scripts/build.sh >&2\n"
                         "scripts/fabricsim-sweep --db e1.db --fabricsim build/fabricsim E1a\n"
                         "scripts/fabricsim-sweep --db e1.db --fabricsim build/fabricsim E1b\n"
                         "scripts/sweep-table e1.db --rows flow.f1.dst --cols leaf.cache.enable\n")

    def test_every_family_lists_and_its_page_names_it(self):
        listed = sweep("--list")
        self.assertEqual([line.split("\t")[0] for line in listed.stdout.splitlines()], FAMILIES)
        pages = ""
        for name in sorted(n for n in os.listdir(os.path.join(ROOT, "docs", "studies")) if n.endswith(".md")):
            with open(os.path.join(ROOT, "docs", "studies", name)) as f:
                pages += f.read()
        for family in FAMILIES:
            self.assertRegex(pages, rf"scripts/sweep {re.escape(family)}\b", family)

    def test_bad_command_lines_exit_2_with_one_line(self):
        for args, words in ((["E7"], "no study family 'E7'"), ([], "no study family given"),
                            (["--jobs", "2"], "'--jobs' is not a study family")):
            result = sweep(*args)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn(words, result.stderr)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
            self.assertEqual(result.stdout, "")


if __name__ == "__main__":
    unittest.main()
