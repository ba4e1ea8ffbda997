#!/usr/bin/env python3
"""Metrics are typed (model/recording/metrics.h): a metric the catalog lacks,
or one recorded as the other kind, does not compile. Each case below is a
small translation unit given to the build's compiler (syntax only): the
correct one must compile, every other must fail, for the reason named.

Usage: typed_metrics_test.py COMPILER SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile
import unittest

COMPILER = sys.argv[1] if len(sys.argv) > 1 else "c++"
SOURCE_DIR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..")

PROLOGUE = """
#include "model/recording/recorder.h"
using namespace fabric;
void record(Recorder& recorder, EntityId e) {
"""
EPILOGUE = "\n}\n"


def compile_case(body):
    """(compiled, diagnostics) for `body` inside a function given a Recorder and an entity."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "case.cpp")
        with open(path, "w") as f:
            f.write(PROLOGUE + body + EPILOGUE)
        run = subprocess.run([COMPILER, "-std=c++17", "-fsyntax-only", "-I", SOURCE_DIR, path],
                             capture_output=True, text=True)
        return run.returncode == 0, run.stderr


class TypedMetrics(unittest.TestCase):
    def assert_compiles(self, body):
        ok, diagnostics = compile_case(body)
        self.assertTrue(ok, f"should compile:\n{body}\n{diagnostics}")

    def assert_refused(self, body, *reasons):
        ok, diagnostics = compile_case(body)
        self.assertFalse(ok, f"should not compile:\n{body}")
        for reason in reasons:
            self.assertIn(reason, diagnostics, f"refused for another reason:\n{body}\n{diagnostics}")

    def test_metrics_of_their_kind_compile(self):
        self.assert_compiles("""
  recorder.sample(0, e, metric::cache_hits, 1.0);
  recorder.total(e, metric::replays, 2.0);
  recorder.total(e, metric::link_messages_of.member("frame"), 3.0);
  static_assert(metric::cache_hits.name() == "cache_hits");
  static_assert(metric::replays.definition().kind == MetricKind::total);
""")

    def test_a_metric_the_catalog_lacks_is_refused(self):
        self.assert_refused("recorder.sample(0, e, metric::cache_hitz, 1.0);", "cache_hitz")
        self.assert_refused("recorder.total(e, metric::no_such_total, 1.0);", "no_such_total")

    def test_a_descriptor_for_a_name_the_catalog_lacks_is_refused(self):
        self.assert_refused('constexpr SeriesMetric m = series_metric("cache_hitz");',
                            "not a metric of this kind")

    def test_a_total_recorded_as_a_sample_is_refused(self):
        self.assert_refused("recorder.sample(0, e, metric::replays, 1.0);", "MetricKind::total")

    def test_a_series_recorded_as_a_total_is_refused(self):
        self.assert_refused("recorder.total(e, metric::cache_hits, 1.0);", "SeriesMetric")

    def test_a_descriptor_of_the_other_kind_is_refused(self):
        self.assert_refused('constexpr TotalMetric m = total_metric("cache_hits");', "not a metric of this kind")

    def test_a_name_as_a_string_is_refused(self):
        self.assert_refused('recorder.sample(0, e, "cache_hits", 1.0);', "const char")
        self.assert_refused('recorder.total(e, "replays", 1.0);', "const char")

    def test_a_family_must_be_one(self):
        self.assert_refused('constexpr TotalFamily f{"link_messages"};', "not a family")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
