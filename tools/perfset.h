/* A private per-CPU perf ring set for the CLI and the benchmarks: one event
 * per online CPU, each ring mapped and drained through the verified core.
 * (Stands in for the Linux adapter's buffer set until that is committed.) */
#ifndef RPT_PERFSET_H
#define RPT_PERFSET_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include "rp_ring.h"

typedef struct rpt_cpu_ring {
	int cpu;
	int fd;
	void *base;        /* control page; data follows at base + data_offset */
	size_t map_len;
	rp_ring ring;
	uint64_t records;
	uint64_t bytes;    /* record bytes consumed */
	uint64_t lost;     /* from LOST records */
	uint64_t corrupt;  /* framing errors; tail was resynchronised to head */
} rpt_cpu_ring;

typedef struct rpt_perfset {
	int epfd;
	int map_fd;        /* PERF_EVENT_ARRAY the fds were stored in, or -1 */
	int n;
	rpt_cpu_ring *rings;
} rpt_perfset;

/* Called for every record; return non-zero to stop the drain early (the
 * record counts as consumed). */
typedef int (*rpt_record_fn)(void *arg, const rpt_cpu_ring *r, const rp_record *rec);

/* The online CPU ids (they can have gaps).  Returns the count (<= max) or -errno. */
int rpt_online_cpus(int *cpus, int max);

/* Open attr on every online CPU (or only `only_cpu` if >= 0) for pid
 * (-1: all tasks), map 1 + pages pages (pages a power of two) and, if
 * map_fd >= 0, store each fd at key = CPU id.  0 or -errno. */
int rpt_perfset_open(rpt_perfset *s, struct perf_event_attr *attr, pid_t pid,
                     int only_cpu, int map_fd, unsigned pages);
/* Wait up to timeout_ms for a ring to become readable: > 0 ready, 0 timeout,
 * -errno (-EINTR on a signal). */
int rpt_perfset_poll(rpt_perfset *s, int timeout_ms);
/* Drain every ring once.  Returns the records delivered, or -1 if fn asked to stop
 * (stopped rings still release what they consumed). */
long rpt_perfset_consume(rpt_perfset *s, rpt_record_fn fn, void *arg);
/* Drain one ring (index i). */
long rpt_ring_consume(rpt_cpu_ring *r, rpt_record_fn fn, void *arg);
int rpt_perfset_enable(rpt_perfset *s);
void rpt_perfset_close(rpt_perfset *s);

#endif
