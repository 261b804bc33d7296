#ifndef SIWA_FUZZ_DRIVER_H
#define SIWA_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// Implemented by each fuzz target in Swift with @_cdecl("LLVMFuzzerTestOneInput").
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver on LLVMFuzzerTestOneInput with the process arguments and returns its status.
/// Swift executables have their own main, so libFuzzer's main never runs; this call is what starts fuzzing.
int fuzz_driver_main(int argc, char **argv);

#endif
