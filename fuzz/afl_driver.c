/* AFL++ driver: persistent mode with shared-memory test cases around any
 * harness's LLVMFuzzerTestOneInput.  Built with afl-clang-fast only. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__AFL_FUZZ_INIT();

int main(void)
{
#ifdef __AFL_HAVE_MANUAL_CONTROL
	__AFL_INIT();
#endif
	const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(100000)) {
		const size_t len = (size_t)__AFL_FUZZ_TESTCASE_LEN;
		/* a private copy, so out-of-bounds reads past len are caught by ASan */
		uint8_t *copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, buf, len);
		LLVMFuzzerTestOneInput(copy, len);
		free(copy);
	}
	return 0;
}
