/* Replay files and directories through a harness without any fuzzer:
 *   replay_<harness> PATH...   (a directory replays every regular file in it)
 * Prints one line per input on -v, a summary always; an oracle failure or a
 * sanitizer report aborts the process, so a non-zero exit is a failure. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose;
static unsigned long replayed;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0, n;
	uint8_t *buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	if (verbose)
		fprintf(stderr, "replay %s (%zu bytes)\n", path, len);
	/* exact-size copy so ASan sees reads past the input */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact)
		abort();
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
	return 0;
}

static int run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (name[0] != '.') {
			char *full = malloc(strlen(path) + strlen(name) + 2);
			if (!full)
				abort();
			sprintf(full, "%s/%s", path, name);
			if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && run_file(full) != 0)
				rc = -1;
			free(full);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (run_path(argv[i]) != 0)
			rc = 1;
	}
	printf("replayed %lu inputs\n", replayed);
	return rc;
}
