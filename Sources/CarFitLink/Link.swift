// Link-only target: its linker settings (static Swift runtime, exported-symbol list, SONAME)
// apply to the libcarfit.so product and to nothing else, so the test binaries keep the
// toolchain's dynamic runtime. It has no code of its own.
