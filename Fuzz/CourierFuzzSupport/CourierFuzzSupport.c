#include "CourierFuzzSupport.h"

#include <stddef.h>
#include <stdint.h>

// Defined by the fuzz target (Swift, `@_cdecl("LLVMFuzzerTestOneInput")`).
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// libFuzzer's entry point for programs that have a `main` of their own (LLVM 12 and later);
// the fuzzer runtime that `-sanitize=fuzzer` links provides it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int courier_fuzz_run(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
