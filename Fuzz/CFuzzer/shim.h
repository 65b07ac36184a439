// libFuzzer's driver for programs with a main of their own (LLVM 12 and later). Its
// runtime ships with the Swift toolchain and is linked by `-sanitize=fuzzer`.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
