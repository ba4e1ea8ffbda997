// The test binary's main() comes from gtest_main; libsystemc still needs an
// sc_main symbol to link. Tests that simulate run fabricsim as a subprocess
// (SystemC elaborates once per process).
extern "C" int sc_main(int, char*[]) { return 0; }
