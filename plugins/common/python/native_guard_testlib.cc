// A library for native_guard_test to load from wherever it puts a copy.
extern "C" int native_guard_testlib_answer() { return 42; }
