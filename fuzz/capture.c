/* Capture real perf ring pages from the kernel as fuzz seeds.
 *   capture DIR   ->  DIR/{ring_raw,ring_diff,ring_hostile}/capture-<scenario>
 * A self-contained perf_event_open of the cpu-clock software event sampling
 * this process (plus MMAP/COMM/FORK/EXIT side-band records), an 8 KiB data
 * ring; each scenario stops the event, acquire-loads data_head and writes
 * the data area rotated to start at tail, with head and tail, in the image
 * format of fuzz/fz_util.h.  Exit 77 (skip) when the kernel refuses perf. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fz_util.h"

#define DATA_PAGES 2u

static long page_size;
static volatile unsigned long sink;

static int open_event(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 50000; /* 50 us of cpu time */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.disabled = 1;
	a.mmap = 1;
	a.mmap_data = 1;
	a.comm = 1;
	a.task = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Burn cpu for ms milliseconds, making side-band records on the way. */
static void work(double ms, int sideband)
{
	const double end = now() + ms / 1000.0;
	int i = 0;
	while (now() < end) {
		for (int k = 0; k < 10000; k++)
			sink += (unsigned long)k * k;
		if (sideband && ++i % 50 == 0) {
			void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m != MAP_FAILED)
				munmap(m, 4096);
			prctl(PR_SET_NAME, (unsigned long)(i % 100 ? "rp-capture" : "rp-capture-2"), 0, 0, 0);
			pid_t c = fork();
			if (c == 0)
				_exit(0);
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
}

static void save(const char *dir, const char *name, const struct perf_event_mmap_page *meta,
                 const uint8_t *data, uint64_t size, uint64_t tail, uint8_t max_sel)
{
	const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	static uint8_t buf[FZ_IMAGE_HDR + 65536];
	const char *h[] = { "ring_raw", "ring_diff", "ring_hostile" };
	unsigned sel = 0;
	while ((8192ull << sel) < size)
		sel++;
	fz_image_header(buf, sel, max_sel, 0, 0, tail, head);
	for (uint64_t i = 0; i < size; i++)
		buf[FZ_IMAGE_HDR + i] = data[(tail + i) % size];
	for (int k = 0; k < 3; k++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, h[k]);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/%s/capture-%s", dir, h[k], name);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, FZ_IMAGE_HDR + size, f) != FZ_IMAGE_HDR + size || fclose(f) != 0) {
			perror(path);
			exit(1);
		}
	}
	printf("capture-%s: tail %llu head %llu (%llu bytes pending, ring %llu)\n", name,
	       (unsigned long long)tail, (unsigned long long)head, (unsigned long long)(head - tail),
	       (unsigned long long)size);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	mkdir(argv[1], 0755);
	page_size = sysconf(_SC_PAGESIZE);
	const size_t len = (size_t)page_size * (1u + DATA_PAGES);

	/* three scenarios, each on a fresh event */
	for (int sc = 0; sc < 3; sc++) {
		const int fd = open_event();
		if (fd < 0) {
			printf("SKIP capture: perf_event_open: %s\n", strerror(errno));
			return 77;
		}
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			printf("SKIP capture: mmap: %s\n", strerror(errno));
			return 77;
		}
		struct perf_event_mmap_page *meta = m;
		const uint8_t *data = (const uint8_t *)m + meta->data_offset;
		const uint64_t size = meta->data_size;
		uint64_t tail = 0;

		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		if (sc == 0) {
			/* fresh: a partly filled ring, tail 0 */
			work(3, 1);
		} else {
			/* consume for a while so positions wrap the ring many times */
			for (int i = 0; i < 200; i++) {
				work(1, 1);
				tail = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
				__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
			}
			if (sc == 2) {
				/* overflow: stop consuming until the kernel drops records,
				 * then free space so it writes a LOST record */
				work(60, 0);
				tail = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
				__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
			}
			work(2, 1);
		}
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		static const char *names[] = { "fresh", "wrapped", "lost" };
		save(argv[1], names[sc], meta, data, size, tail, (uint8_t)(sc * 90 + 3));
		munmap(m, len);
		close(fd);
	}
	return 0;
}
