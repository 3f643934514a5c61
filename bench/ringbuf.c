/* Benchmark 2: BPF ring buffer consumer cost, ringproof against libbpf's
 * ring_buffer__consume.  Needs the ringbuf adapter; until then reported as
 * not available. */
#include "bench.h"

int rpb_ringbuf(const char *obj_dir, FILE *csv)
{
	(void)obj_dir;
	(void)csv;
	printf("\n2. BPF ring buffer: not available (no ringbuf adapter in this build)\n");
	return 0;
}
