// The module only declares libFuzzer's driver (include/CLibFuzzer.h); the symbol comes from libFuzzer,
// which `-sanitize=fuzzer` links. SwiftPM needs one source file per C target.
#include "CLibFuzzer.h"
