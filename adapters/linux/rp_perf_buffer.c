#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "rp_perf.h"
#include "rp_perf_buffer.h"

enum { MAX_CPUS = 4096, DEFAULT_PAGES = 8 };

typedef struct cpu_ring {
	int cpu;
	int fd;
	bool in_map; /* map slot written by us */
	rp_perf_ring ring;
} cpu_ring;

struct rp_perf_buffer {
	int map_fd;
	bool own_map_fd;
	int epoll_fd;
	rp_perf_record_fn fn;
	rp_perf_sample_fn sample_fn;
	rp_perf_lost_fn lost_fn;
	void *ctx;
	uint64_t malformed;
	uint32_t n;
	cpu_ring rings[];
};

/* Bridges a ring's rp_record_fn to the set's callbacks. */
typedef struct drain_ctx {
	rp_perf_buffer *pb;
	int cpu;
	bool stopped; /* a callback asked to stop */
} drain_ctx;

static int deliver(drain_ctx *dc, const rp_record *rec)
{
	rp_perf_buffer *pb = dc->pb;

	if (pb->fn)
		return pb->fn(pb->ctx, dc->cpu, rec);
	if (rec->type == RP_RECORD_SAMPLE) {
		rp_bpf_output out;
		if (rp_bpf_output_view(rec, &out) != RP_OK) {
			pb->malformed++;
			return 0;
		}
		return pb->sample_fn ? pb->sample_fn(pb->ctx, dc->cpu, &out) : 0;
	}
	if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) != RP_OK) {
			pb->malformed++;
			return 0;
		}
		return pb->lost_fn ? pb->lost_fn(pb->ctx, dc->cpu, l.lost) : 0;
	}
	pb->malformed++;
	return 0;
}

static int on_record(void *p, const rp_record *rec)
{
	drain_ctx *dc = p;
	int r = deliver(dc, rec);

	if (r)
		dc->stopped = true;
	return r;
}

static int check_map(int map_fd, uint32_t *max_entries)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	int err;

	/* the kernel answers EBADFD for a closed fd; report plain EBADF */
	if (fcntl(map_fd, F_GETFD) < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	err = bpf_obj_get_info_by_fd(map_fd, &info, &len);
	if (err)
		return err < 0 ? err : -EINVAL; /* libbpf 1.x returns -errno */
	if (info.type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		return RP_E_MAP_TYPE;
	*max_entries = info.max_entries;
	return 0;
}

static int open_cpu(rp_perf_buffer *pb, cpu_ring *cr, const rp_perf_buffer_opts *o)
{
	struct perf_event_attr attr;
	uint32_t key = (uint32_t)cr->cpu;
	uint32_t value;
	struct epoll_event ev;
	int err;

	rp_attr_init_bpf_output(&attr);
	if (o->wakeup_bytes)
		rp_attr_set_wakeup_bytes(&attr, o->wakeup_bytes);
	else
		rp_attr_set_wakeup_events(&attr, o->wakeup_events ? o->wakeup_events : 1);
	err = rp_perf_open(&attr, -1, cr->cpu, -1, 0, &cr->fd, NULL);
	if (err)
		return err;
	err = rp_perf_ring_map(&cr->ring, cr->fd, o->data_pages ? o->data_pages : DEFAULT_PAGES,
	                       o->ring_flags & RP_RING_STRICT);
	if (err)
		return err;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u32 = (uint32_t)(cr - pb->rings);
	if (epoll_ctl(pb->epoll_fd, EPOLL_CTL_ADD, cr->fd, &ev) < 0)
		return -errno;
	value = (uint32_t)cr->fd;
	err = bpf_map_update_elem(pb->map_fd, &key, &value, BPF_ANY);
	if (err)
		return err < 0 ? err : -EINVAL;
	cr->in_map = true;
	return rp_perf_enable(cr->fd, false);
}

void rp_perf_buffer_free(rp_perf_buffer *pb)
{
	uint32_t i;

	if (!pb)
		return;
	for (i = 0; i < pb->n; i++) {
		cpu_ring *cr = &pb->rings[i];
		if (cr->fd >= 0)
			rp_perf_disable(cr->fd, false);
		if (cr->in_map) {
			uint32_t key = (uint32_t)cr->cpu;
			bpf_map_delete_elem(pb->map_fd, &key);
		}
		rp_perf_ring_unmap(&cr->ring);
		if (cr->fd >= 0)
			close(cr->fd);
	}
	if (pb->epoll_fd >= 0)
		close(pb->epoll_fd);
	if (pb->own_map_fd && pb->map_fd >= 0)
		close(pb->map_fd);
	free(pb);
}

static int buffer_new(int map_fd, bool own_map_fd, const rp_perf_buffer_opts *opts,
                      rp_perf_record_fn fn, rp_perf_sample_fn sample,
                      rp_perf_lost_fn lost, void *ctx, rp_perf_buffer **out)
{
	rp_perf_buffer_opts o = { 0 };
	int *cpus = NULL;
	uint32_t ncpu = 0, max_entries = 0, i;
	rp_perf_buffer *pb = NULL;
	int err;

	if (out)
		*out = NULL;
	if (opts)
		o = *opts;
	if (!out || map_fd < 0 || (o.data_pages & (o.data_pages - 1)) ||
	    (o.ring_flags & RP_RING_OVERWRITE)) {
		err = map_fd < 0 ? -EBADF : -EINVAL;
		goto fail_map;
	}
	err = check_map(map_fd, &max_entries);
	if (err)
		goto fail_map;
	cpus = malloc(MAX_CPUS * sizeof(int));
	if (!cpus) {
		err = -ENOMEM;
		goto fail_map;
	}
	err = rp_online_cpus(cpus, MAX_CPUS, &ncpu);
	if (err)
		goto fail_map;
	for (i = 0; i < ncpu; i++) {
		if ((uint32_t)cpus[i] >= max_entries) {
			err = RP_E_MAP_SMALL;
			goto fail_map;
		}
	}
	pb = calloc(1, sizeof(*pb) + ncpu * sizeof(cpu_ring));
	if (!pb) {
		err = -ENOMEM;
		goto fail_map;
	}
	pb->map_fd = map_fd;
	pb->own_map_fd = own_map_fd;
	pb->fn = fn;
	pb->sample_fn = sample;
	pb->lost_fn = lost;
	pb->ctx = ctx;
	pb->n = ncpu;
	for (i = 0; i < ncpu; i++) {
		pb->rings[i].cpu = cpus[i];
		pb->rings[i].fd = -1;
	}
	free(cpus);
	cpus = NULL;
	pb->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (pb->epoll_fd < 0) {
		err = -errno;
		goto fail;
	}
	for (i = 0; i < ncpu; i++) {
		err = open_cpu(pb, &pb->rings[i], &o);
		if (err)
			goto fail;
	}
	*out = pb;
	return 0;
fail:
	rp_perf_buffer_free(pb); /* closes an owned map fd too */
	return err;
fail_map:
	free(cpus);
	if (own_map_fd && map_fd >= 0)
		close(map_fd);
	return err;
}

int rp_perf_buffer_new(int map_fd, const rp_perf_buffer_opts *opts,
                       rp_perf_record_fn fn, void *ctx, rp_perf_buffer **out)
{
	if (!fn) {
		if (out)
			*out = NULL;
		return -EINVAL;
	}
	return buffer_new(map_fd, false, opts, fn, NULL, NULL, ctx, out);
}

int rp_perf_buffer_new_payload(int map_fd, const rp_perf_buffer_opts *opts,
                               rp_perf_sample_fn sample, rp_perf_lost_fn lost,
                               void *ctx, rp_perf_buffer **out)
{
	return buffer_new(map_fd, false, opts, NULL, sample, lost, ctx, out);
}

int rp_perf_buffer_new_pinned(const char *path, const rp_perf_buffer_opts *opts,
                              rp_perf_record_fn fn, void *ctx,
                              rp_perf_buffer **out)
{
	int fd;

	if (out)
		*out = NULL;
	if (!path || !fn)
		return -EINVAL;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return fd; /* libbpf 1.x: -errno */
	return buffer_new(fd, true, opts, fn, NULL, NULL, ctx, out);
}

static int consume_ring(rp_perf_buffer *pb, uint32_t idx, bool *stopped)
{
	drain_ctx dc = { pb, pb->rings[idx].cpu, false };
	int r = rp_perf_ring_drain(&pb->rings[idx].ring, on_record, &dc, 0);

	*stopped = dc.stopped;
	return r;
}

int rp_perf_buffer_consume_ring(rp_perf_buffer *pb, uint32_t idx)
{
	bool stopped;

	if (!pb || idx >= pb->n)
		return -EINVAL;
	return consume_ring(pb, idx, &stopped);
}

int rp_perf_buffer_consume(rp_perf_buffer *pb)
{
	int total = 0;
	bool stopped = false;
	uint32_t i;

	if (!pb)
		return -EINVAL;
	for (i = 0; i < pb->n && !stopped; i++) {
		int r = consume_ring(pb, i, &stopped);
		if (r < 0)
			return r;
		total += r;
	}
	return total;
}

int rp_perf_buffer_poll(rp_perf_buffer *pb, int timeout_ms)
{
	struct epoll_event evs[64];
	int n, i, total = 0;
	bool stopped = false;

	if (!pb)
		return -EINVAL;
	n = epoll_wait(pb->epoll_fd, evs, 64, timeout_ms);
	if (n < 0)
		return -errno;
	for (i = 0; i < n && !stopped; i++) {
		int r;
		if (evs[i].data.u32 >= pb->n)
			continue;
		r = consume_ring(pb, evs[i].data.u32, &stopped);
		if (r < 0)
			return r;
		total += r;
	}
	return total;
}

int rp_perf_buffer_epoll_fd(const rp_perf_buffer *pb)
{
	return pb ? pb->epoll_fd : -EINVAL;
}

static int pause_all(rp_perf_buffer *pb, bool pause)
{
	uint32_t i;

	if (!pb)
		return -EINVAL;
	for (i = 0; i < pb->n; i++) {
		int err = rp_perf_pause_output(pb->rings[i].fd, pause);
		if (err)
			return err;
	}
	return 0;
}

int rp_perf_buffer_pause(rp_perf_buffer *pb)
{
	return pause_all(pb, true);
}

int rp_perf_buffer_resume(rp_perf_buffer *pb)
{
	return pause_all(pb, false);
}

uint32_t rp_perf_buffer_ring_count(const rp_perf_buffer *pb)
{
	return pb ? pb->n : 0;
}

int rp_perf_buffer_ring_cpu(const rp_perf_buffer *pb, uint32_t idx)
{
	return pb && idx < pb->n ? pb->rings[idx].cpu : -1;
}

int rp_perf_buffer_ring_fd(const rp_perf_buffer *pb, uint32_t idx)
{
	return pb && idx < pb->n ? pb->rings[idx].fd : -1;
}

int rp_perf_buffer_stats(const rp_perf_buffer *pb, int cpu, rp_ring_stats *out)
{
	uint32_t i;

	if (!pb || !out)
		return -EINVAL;
	for (i = 0; i < pb->n; i++) {
		if (pb->rings[i].cpu == cpu) {
			*out = pb->rings[i].ring.stats;
			return 0;
		}
	}
	return -ENOENT;
}

uint64_t rp_perf_buffer_malformed(const rp_perf_buffer *pb)
{
	return pb ? pb->malformed : 0;
}
