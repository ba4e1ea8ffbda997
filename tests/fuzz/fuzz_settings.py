"""The fuzzers' settings from the environment (fuzz_config.py, fuzz_scripts.py):
FABRICSIM_BINARY (required), FABRICSIM_FUZZ_CASES, FABRICSIM_FUZZ_SEED,
FABRICSIM_FUZZ_TIMEOUT, FABRICSIM_FUZZ_VERBOSE."""
import os
import sys
from dataclasses import dataclass


@dataclass
class FuzzSettings:
    binary: str    # absolute: each case runs in its own directory
    cases: int
    seed: int
    timeout: float
    verbose: bool


def from_environment(prog, default_cases, default_timeout):
    binary = os.environ.get("FABRICSIM_BINARY")
    if not binary:
        sys.exit(f"{prog}: FABRICSIM_BINARY must name the fabricsim executable")
    return FuzzSettings(os.path.abspath(binary), int(os.environ.get("FABRICSIM_FUZZ_CASES", str(default_cases))),
                        int(os.environ.get("FABRICSIM_FUZZ_SEED", "1")),
                        float(os.environ.get("FABRICSIM_FUZZ_TIMEOUT", str(default_timeout))),
                        bool(os.environ.get("FABRICSIM_FUZZ_VERBOSE")))
