/* A per-CPU set of sampling events for one task (and its children, with
 * inherit), for `ringproof record`: one event and one ring per online CPU,
 * built on the adapters (rp_perf_open, rp_perf_ring_map/drain), one epoll
 * over all.  The BPF-output sets of trace/pipe use rp_perf_buffer instead. */
#ifndef RPT_PERFSET_H
#define RPT_PERFSET_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include "rp_perf_ring.h"

typedef struct rpt_cpu_ring {
	int cpu;
	int fd;
	rp_perf_ring ring;
} rpt_cpu_ring;

typedef struct rpt_perfset {
	int epfd;
	uint32_t n;
	rpt_cpu_ring *rings;
} rpt_perfset;

/* Called for every record; return non-zero to stop the drain early. */
typedef int (*rpt_record_fn)(void *arg, int cpu, const rp_record *rec);

/* Open attr for pid on every online CPU and map 1 + pages pages each.
 * 0 or a negative code (rp_strerror). */
int rpt_perfset_open(rpt_perfset *s, struct perf_event_attr *attr, pid_t pid, uint32_t pages);
/* Wait up to timeout_ms for a ring to become readable: >= 0 or -errno. */
int rpt_perfset_poll(rpt_perfset *s, int timeout_ms);
/* Drain every ring once; returns the records delivered or a negative code. */
long rpt_perfset_consume(rpt_perfset *s, rpt_record_fn fn, void *arg);
/* Sum of every ring's statistics. */
void rpt_perfset_stats(const rpt_perfset *s, rp_perf_stats *sum);
void rpt_perfset_close(rpt_perfset *s);

#endif
