#!/usr/bin/python3
"""Bring your own RTL (FABRICSIM_RTL_SYNC_*): CMake checks a user's block
against the contract at configure time. A block that fits (our sync CAM
under another module name) configures and is named; one without a port, or
with a port of another width, stops the configure with Verilator's message.
The build's arguments (FABRICSIM_RTL_SYNC_ARGS) are not the lint's
(FABRICSIM_RTL_SYNC_LINT_ARGS), and no warning flag in either silences the
contract's width check. Configure reads the block's QUERY_LATENCY (with the
build's -G) and refuses a block that declares none (also one that names it
by a `define), saying what to write. A block built from a library whose
folder the lint is not given is told that a search path is missing, not
that it breaks the contract, and configures once -y gives it. A block
written before a port was added is told the port's date and where the
contract's changes are listed.

usage: byo_configure_test.py SOURCE_DIR CASE
       (CASE: Fits, MissingPort, WrongWidth, LintArgsApart, WarningFlagsCannotSilence,
        NoQueryLatency, QueryLatencyByDefine, LibraryPath, OlderBlock, RegisteredQueries)
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCE = sys.argv[1]
CASE = sys.argv[2]


def user_block(scratch, text_edit):
    with open(os.path.join(SOURCE, "rtl", "sync_cam.sv")) as f:
        text = f.read().replace("module sync_cam #(", "module my_cam #(", 1)
    path = os.path.join(scratch, "my_cam.sv")
    with open(path, "w") as f:
        f.write(text_edit(text))
    return path


def configure(scratch, block, *options):
    return subprocess.run(
        ["cmake", "-S", SOURCE, "-B", os.path.join(scratch, "build"),
         "-DFABRICSIM_RTL_SYNC_SOURCES=" + block, "-DFABRICSIM_RTL_SYNC_TOP=my_cam", *options],
        capture_output=True, text=True, timeout=600)


def with_32_bit_evictions(t):
    narrowed = t.replace("output logic [63:0]       evictions,", "output logic [31:0]       evictions,")
    assert narrowed != t, "rtl/sync_cam.sv's evictions port changed: update this test"
    return narrowed


def said(r):  # CMake folds its messages: compare with whitespace collapsed
    return " ".join((r.stdout + r.stderr).split())


def expect(condition, what, r):
    if not condition:
        print("FAILED:", what, "\n--- stdout\n" + r.stdout[-3000:] + "\n--- stderr\n" + r.stderr[-3000:])
        sys.exit(1)


with tempfile.TemporaryDirectory() as scratch:
    if CASE == "Fits":
        r = configure(scratch, user_block(scratch, lambda t: t))
        expect(r.returncode == 0, "a block that fits configures", r)
        expect("RTL sync_cam: " + os.path.join(scratch, "my_cam.sv") + " (top my_cam)" in said(r),
               "the build names the user's block", r)
    elif CASE == "MissingPort":
        def drop_q_ahead(t):
            t = re.sub(r"\n\s*output logic \[31:0\]\s+q_ahead,", "", t)
            return re.sub(r"\n\s*assign q_ahead .*", "", t)
        r = configure(scratch, user_block(scratch, drop_q_ahead))
        expect(r.returncode != 0, "a block without q_ahead is refused", r)
        expect("does not fit the contract" in said(r) and "Pin not found: 'q_ahead'" in said(r),
               "the contract and Verilator's message", r)
    elif CASE == "OlderBlock":
        def before_query_latency(t):
            t = re.sub(r"\n\s*output logic \[7:0\]\s+p_query_latency[^\n]*", "", t)
            t = re.sub(r"\n\s*assign p_query_latency .*", "", t)
            last = t.replace("output logic [15:0]       p_entries,", "output logic [15:0]       p_entries", 1)
            assert last != t, "rtl/sync_cam.sv's p_entries port changed: update this test"
            return last
        r = configure(scratch, user_block(scratch, before_query_latency))
        expect(r.returncode != 0, "a block written before p_query_latency is refused", r)
        expect("The contract gained the port 'p_query_latency' on 2026-11-26: a block written before adds it" in
               said(r), "what changed, and when", r)
    elif CASE == "WrongWidth":
        def narrow_voq(t):
            return t.replace("output logic [15:0]       used_entries,", "output logic [7:0]        used_entries,")
        r = configure(scratch, user_block(scratch, narrow_voq))
        expect(r.returncode != 0, "a block with an 8-bit used_entries is refused", r)
        expect("does not fit the contract" in said(r) and "WIDTH" in said(r), "Verilator's width message", r)
    elif CASE == "LintArgsApart":
        # A parameter of the user's own, set for the build: in the lint the
        # top is the contract's wrapper, which has no such parameter.
        def with_extra_parameter(t):
            return t.replace("parameter int WRITE_CYCLES = 1", "parameter int WRITE_CYCLES = 1,\n    parameter int EXTRA = 0", 1)
        r = configure(scratch, user_block(scratch, with_extra_parameter), "-DFABRICSIM_RTL_SYNC_ARGS=-GEXTRA=3")
        expect(r.returncode == 0, "a -G for the block's own parameter in FABRICSIM_RTL_SYNC_ARGS configures", r)
        with open(os.path.join(scratch, "build", "verilated", "Vfabric_sync_cam_24.commands")) as f:
            expect("-GEXTRA=3" in f.read(), "the build's Verilator gets it", r)
    elif CASE == "WarningFlagsCannotSilence":
        flags = "-Wno-WIDTH;-Wno-fatal"
        r = configure(scratch, user_block(scratch, with_32_bit_evictions),
                      "-DFABRICSIM_RTL_SYNC_ARGS=" + flags, "-DFABRICSIM_RTL_SYNC_LINT_ARGS=" + flags)
        expect(r.returncode != 0, "a block with a 32-bit evictions is refused whatever the warning flags", r)
        expect("does not fit the contract" in said(r) and "'evictions' expects 32 bits" in said(r),
               "the contract and Verilator's width message", r)
    elif CASE == "NoQueryLatency":
        def undeclared(t):
            dropped = re.sub(r"\n\s*localparam int QUERY_LATENCY = 0;", "", t)
            assert dropped != t, "rtl/sync_cam.sv's QUERY_LATENCY changed: update this test"
            return dropped.replace("8'(QUERY_LATENCY)", "8'd0")
        r = configure(scratch, user_block(scratch, undeclared))
        expect(r.returncode != 0, "a block that declares no QUERY_LATENCY is refused", r)
        expect("declares no QUERY_LATENCY in its top module" in said(r), "the parameter named", r)
        expect("Write in my_cam: `localparam int QUERY_LATENCY = 0;`" in said(r), "what to write", r)
    elif CASE == "QueryLatencyByDefine":
        def by_define(t):
            defined = t.replace("localparam int QUERY_LATENCY = 0;", "", 1)
            assert defined != t, "rtl/sync_cam.sv's QUERY_LATENCY changed: update this test"
            return "`define QUERY_LATENCY 0\n" + defined.replace("8'(QUERY_LATENCY)", "8'(`QUERY_LATENCY)")
        r = configure(scratch, user_block(scratch, by_define))
        expect(r.returncode != 0, "a block that gives QUERY_LATENCY by a `define is refused", r)
        expect("Write in my_cam: `localparam int QUERY_LATENCY = 0;`" in said(r), "what to write", r)
    elif CASE == "LibraryPath":
        library = os.path.join(scratch, "lib")
        os.mkdir(library)
        with open(os.path.join(library, "my_lib_flop.sv"), "w") as f:
            f.write("module my_lib_flop (input logic clk, input logic d, output logic q);\n"
                    "  always_ff @(posedge clk) q <= d;\nendmodule\n")

        def with_a_library_flop(t):
            used = t.replace("endmodule", "  logic spare_q;\n  my_lib_flop spare (.clk(clk), .d(rst), .q(spare_q));\n"
                                          "endmodule", 1)
            assert used != t, "rtl/sync_cam.sv has no endmodule?"
            return used
        block = user_block(scratch, with_a_library_flop)
        r = configure(scratch, block)
        expect(r.returncode != 0, "a block whose library the lint cannot find is refused", r)
        expect("cannot find 'my_lib_flop': give its folder in FABRICSIM_RTL_SYNC_LINT_ARGS" in said(r),
               "the missing search path named", r)
        expect("does not fit the contract" not in said(r), "not told it breaks the contract", r)
        search = f"-y;{library};+libext+.sv"
        r = configure(scratch, block, "-DFABRICSIM_RTL_SYNC_LINT_ARGS=" + search, "-DFABRICSIM_RTL_SYNC_ARGS=" + search)
        expect(r.returncode == 0, "with -y and +libext+ it configures", r)
    elif CASE == "RegisteredQueries":
        fixture = os.path.join(SOURCE, "tests", "rtl", "fixtures", "registered_query_sync_cam.sv")
        r = subprocess.run(
            ["cmake", "-S", SOURCE, "-B", os.path.join(scratch, "build"),
             "-DFABRICSIM_RTL_SYNC_SOURCES=rtl/sync_cam.sv;" + fixture,
             "-DFABRICSIM_RTL_SYNC_TOP=registered_query_sync_cam", "-DFABRICSIM_RTL_SYNC_ARGS=-GQUERY_LATENCY=2"],
            capture_output=True, text=True, timeout=600)
        expect(r.returncode == 0, "a block with registered queries configures", r)
        expect("queries registered 2 cycles" in said(r), "configure read QUERY_LATENCY with the build's -G", r)
    else:
        sys.exit("unknown case " + CASE)
print("passed:", CASE)
