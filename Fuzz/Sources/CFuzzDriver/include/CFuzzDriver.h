#ifndef STOIC_FUZZ_DRIVER_H
#define STOIC_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for a program that has its own `main` (SwiftPM links an executable's
/// entry point as `<Module>_main`): parses libFuzzer's flags from `argc`/`argv` and runs
/// `callback` on each input. Provided by the fuzzer runtime that `-sanitize=fuzzer` links.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
