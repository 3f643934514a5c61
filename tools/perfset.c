#include "perfset.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rp_abi.h"
#include "rp_views.h"

#define RPT_BATCH 256

int rpt_online_cpus(int *cpus, int max)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int n = 0;
	int a, b;
	char sep;

	if (!f)
		return -errno;
	/* "0-3,5,7-8\n" */
	while (fscanf(f, "%d", &a) == 1) {
		b = a;
		if (fscanf(f, "%c", &sep) == 1 && sep == '-') {
			if (fscanf(f, "%d", &b) != 1)
				break;
			if (fscanf(f, "%c", &sep) != 1)
				sep = '\n';
		}
		for (int c = a; c <= b && n < max; c++)
			cpus[n++] = c;
		if (sep != ',')
			break;
	}
	fclose(f);
	return n > 0 ? n : -ENOENT;
}

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int rpt_perfset_open(rpt_perfset *s, struct perf_event_attr *attr, pid_t pid,
                     int only_cpu, int map_fd, unsigned pages)
{
	int cpus[1024];
	int n = rpt_online_cpus(cpus, 1024);
	long page = sysconf(_SC_PAGESIZE);
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->map_fd = map_fd;
	s->epfd = -1;
	if (n < 0)
		return n;
	if (pages == 0 || (pages & (pages - 1)) != 0)
		return -EINVAL;
	if (only_cpu >= 0) {
		int found = 0;
		for (int i = 0; i < n; i++)
			found |= cpus[i] == only_cpu;
		if (!found)
			return -ENODEV;
		cpus[0] = only_cpu;
		n = 1;
	}
	s->rings = calloc((size_t)n, sizeof(*s->rings));
	if (!s->rings)
		return -ENOMEM;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0) {
		err = -errno;
		goto fail;
	}
	for (int i = 0; i < n; i++) {
		rpt_cpu_ring *r = &s->rings[i];
		r->cpu = cpus[i];
		r->fd = perf_open(attr, pid, r->cpu);
		if (r->fd < 0) {
			err = r->fd;
			goto fail;
		}
		s->n = i + 1;
		r->map_len = (size_t)page * (1 + pages);
		r->base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
		if (r->base == MAP_FAILED) {
			r->base = NULL;
			err = -errno;
			goto fail;
		}
		struct perf_event_mmap_page *pg = r->base;
		uint64_t off = pg->data_offset ? pg->data_offset : (uint64_t)page;
		uint64_t size = pg->data_size ? pg->data_size : (uint64_t)page * pages;
		r->ring.data = (const uint8_t *)r->base + off;
		r->ring.size = size;
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, r->fd, &ev) < 0) {
			err = -errno;
			goto fail;
		}
		if (map_fd >= 0) {
			uint32_t key = (uint32_t)r->cpu;
			uint32_t val = (uint32_t)r->fd;
			if (bpf_map_update_elem(map_fd, &key, &val, BPF_ANY) < 0) {
				err = -errno;
				goto fail;
			}
		}
	}
	return 0;
fail:
	rpt_perfset_close(s);
	return err;
}

int rpt_perfset_poll(rpt_perfset *s, int timeout_ms)
{
	struct epoll_event evs[64];
	int n = epoll_wait(s->epfd, evs, 64, timeout_ms);
	return n < 0 ? -errno : n;
}

long rpt_ring_consume(rpt_cpu_ring *r, rpt_record_fn fn, void *arg)
{
	struct perf_event_mmap_page *pg = r->base;
	rp_record recs[RPT_BATCH];
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	long delivered = 0;
	int stop = 0;

	while (!stop) {
		uint32_t count = 0;
		rp_status st = rp_ring_drain(&r->ring, head, &tail, recs, RPT_BATCH, &count);
		uint32_t used = count;
		for (uint32_t i = 0; i < count; i++) {
			rp_lost lost;
			if (recs[i].type == RP_RECORD_LOST && rp_lost_view(&recs[i], &lost) == RP_OK)
				r->lost += lost.lost;
			r->records++;
			r->bytes += recs[i].size;
			delivered++;
			if (fn && fn(arg, r, &recs[i]) != 0) {
				used = i + 1;
				stop = 1;
				break;
			}
		}
		if (stop) {
			/* consume only what the caller saw */
			tail = used < count ? recs[used].pos : tail;
			break;
		}
		if (st == RP_MORE)
			continue;
		if (st < 0) {
			r->corrupt++;
			tail = head; /* resynchronise: the rest of this ring is unreadable */
		}
		break;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return stop ? -1 : delivered;
}

long rpt_perfset_consume(rpt_perfset *s, rpt_record_fn fn, void *arg)
{
	long total = 0;
	for (int i = 0; i < s->n; i++) {
		long got = rpt_ring_consume(&s->rings[i], fn, arg);
		if (got < 0)
			return -1;
		total += got;
	}
	return total;
}

int rpt_perfset_enable(rpt_perfset *s)
{
	for (int i = 0; i < s->n; i++)
		if (ioctl(s->rings[i].fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -errno;
	return 0;
}

void rpt_perfset_close(rpt_perfset *s)
{
	for (int i = 0; i < s->n; i++) {
		rpt_cpu_ring *r = &s->rings[i];
		if (r->fd >= 0)
			ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
		if (s->map_fd >= 0) {
			uint32_t key = (uint32_t)r->cpu;
			bpf_map_delete_elem(s->map_fd, &key);
		}
		if (r->base)
			munmap(r->base, r->map_len);
		if (r->fd >= 0)
			close(r->fd);
	}
	if (s->epfd >= 0)
		close(s->epfd);
	free(s->rings);
	memset(s, 0, sizeof(*s));
	s->epfd = -1;
	s->map_fd = -1;
}
