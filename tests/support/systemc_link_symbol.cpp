// libsystemc refers to sc_main, so every binary linked with it must define
// one. The test binary's main() comes from gtest_main, and the tests that
// simulate run fabricsim as a subprocess (SystemC elaborates once per
// process), so this sc_main is never called.
extern "C" int sc_main(int, char*[]) { return 0; }
