/* ringproof-bench: ringproof against libbpf on the same rings.
 *   ringproof-bench [--csv FILE] [--bpf DIR] [perf] [ringbuf] [floor] [e2e]
 *   ringproof-bench walks PAYLOAD   (the floor walks once each, for callgrind)
 * With no benchmark named, all run.  Prints one line per figure and writes
 * the CSV (bench/run.sh makes the table); never asserts timings; exits 1 if
 * a consumer misses records or checksums differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int silent(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l;
	(void)f;
	(void)ap;
	return 0;
}

int main(int argc, char **argv)
{
	const char *csv_path = NULL, *bpf_dir = "build/bpf";
	int want[4] = { 0, 0, 0, 0 }, any = 0;
	const char *names[4] = { "perf", "ringbuf", "floor", "e2e" };

	if (argc == 3 && !strcmp(argv[1], "walks")) {
		unsigned long records = 0;
		int rc = rpb_floor_walks((unsigned)strtoul(argv[2], NULL, 10), &records);
		printf("walks: %lu records\n", records);
		return rc;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv_path = argv[++i];
			continue;
		}
		if (!strcmp(argv[i], "--bpf") && i + 1 < argc) {
			bpf_dir = argv[++i];
			continue;
		}
		int k;
		for (k = 0; k < 4; k++)
			if (!strcmp(argv[i], names[k]))
				break;
		if (k == 4) {
			fprintf(stderr, "usage: ringproof-bench [--csv FILE] [--bpf DIR] [perf] [ringbuf] [floor] [e2e]\n");
			return 2;
		}
		want[k] = any = 1;
	}
	if (!any)
		want[0] = want[1] = want[2] = want[3] = 1;
	libbpf_set_print(silent);
	FILE *csv = NULL;
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			perror(csv_path);
			return 1;
		}
		fprintf(csv, "bench,payload,impl,value,unit,records,rounds,extra\n");
	}
	int rc = 0;
	if (rpb_pin_cpu(0) != 0)
		fprintf(stderr, "bench: could not pin to CPU 0; figures are noisier\n");
	if (want[0])
		rc |= rpb_perf(bpf_dir, csv);
	if (want[1])
		rc |= rpb_ringbuf(bpf_dir, csv);
	if (want[2])
		rc |= rpb_floor(csv);
	if (want[3])
		rc |= rpb_e2e(bpf_dir, csv);
	if (csv)
		fclose(csv);
	return rc;
}
