#include "fuzz_driver.h"

/// libFuzzer's entry point for programs with their own main (also declared in Sources/CSys/include/csys.h).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

int fuzz_driver_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
