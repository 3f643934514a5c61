#include "perfset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "rp_perf.h"
#include "rp_perf_buffer.h"

#define RPT_MAX_CPUS 4096

int rpt_perfset_open(rpt_perfset *s, struct perf_event_attr *attr, pid_t pid, uint32_t pages)
{
	int *cpus = malloc(RPT_MAX_CPUS * sizeof(int));
	uint32_t n = 0;
	int err;

	memset(s, 0, sizeof(*s));
	s->epfd = -1;
	if (!cpus)
		return -ENOMEM;
	err = rp_online_cpus(cpus, RPT_MAX_CPUS, &n);
	if (err)
		goto out;
	s->rings = calloc(n, sizeof(*s->rings));
	err = -ENOMEM;
	if (!s->rings)
		goto out;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		err = -errno;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		rpt_cpu_ring *r = &s->rings[i];
		r->cpu = cpus[i];
		err = rp_perf_open(attr, pid, r->cpu, -1, 0, &r->fd, NULL);
		if (err)
			goto out;
		s->n = i + 1;
		err = rp_perf_ring_map(&r->ring, r->fd, pages, 0);
		if (err)
			goto out;
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, r->fd, &ev) < 0) {
			err = -errno;
			goto out;
		}
	}
	err = 0;
out:
	free(cpus);
	if (err)
		rpt_perfset_close(s);
	return err;
}

int rpt_perfset_poll(rpt_perfset *s, int timeout_ms)
{
	struct epoll_event evs[64];
	int n = epoll_wait(s->epfd, evs, 64, timeout_ms);
	return n < 0 ? -errno : n;
}

typedef struct drain_arg {
	rpt_record_fn fn;
	void *arg;
	int cpu;
} drain_arg;

static int on_record(void *ctx, const rp_record *rec)
{
	drain_arg *d = ctx;
	return d->fn(d->arg, d->cpu, rec);
}

long rpt_perfset_consume(rpt_perfset *s, rpt_record_fn fn, void *arg)
{
	long total = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		drain_arg d = { fn, arg, s->rings[i].cpu };
		int got = rp_perf_ring_drain(&s->rings[i].ring, on_record, &d, 0);
		if (got < 0)
			return got;
		total += got;
	}
	return total;
}

void rpt_perfset_stats(const rpt_perfset *s, rp_perf_stats *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (uint32_t i = 0; i < s->n; i++) {
		const rp_perf_stats *r = &s->rings[i].ring.stats;
		sum->records += r->records;
		sum->record_bytes += r->record_bytes;
		sum->payload_bytes += r->payload_bytes;
		sum->lost += r->lost;
		sum->lost_records += r->lost_records;
		sum->corrupt += r->corrupt;
		sum->resynced_bytes += r->resynced_bytes;
	}
}

void rpt_perfset_close(rpt_perfset *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		rpt_cpu_ring *r = &s->rings[i];
		rp_perf_disable(r->fd, false);
		rp_perf_ring_unmap(&r->ring);
		close(r->fd);
	}
	if (s->epfd >= 0)
		close(s->epfd);
	free(s->rings);
	memset(s, 0, sizeof(*s));
	s->epfd = -1;
}
