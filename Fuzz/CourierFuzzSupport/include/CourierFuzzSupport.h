#ifndef COURIER_FUZZ_SUPPORT_H
#define COURIER_FUZZ_SUPPORT_H

/// Runs libFuzzer over the target's `LLVMFuzzerTestOneInput`, with the process's arguments:
/// what libFuzzer's own `main` does.
///
/// A fuzz target defines `<TargetName>_main` (with `@_cdecl`) to call this. SwiftPM links an
/// executable with `--defsym main=<TargetName>_main` (so that tests can link executables), and
/// a target built with `-parse-as-library` has no such function of its own: without this one
/// the link fails on an undefined symbol. With it, `main` runs libFuzzer either way.
int courier_fuzz_run(int argc, char **argv);

#endif
