/* Opening and closing a perf buffer set: the map check, perf_event_open,
 * mmap, the map slot writes, the epoll set; free, pause/resume, and poll's
 * epoll_wait.  The delivery and the scheduling of the rings are in
 * rp_perf_buffer.c (no libbpf, no system call). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "rp_perf.h"
#include "rp_perf_buffer_int.h"

enum { MAX_CPUS = 4096, DEFAULT_PAGES = 8 };

typedef rp_perf_buffer_cpu cpu_ring;

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

static int open_cpu(rp_perf_buffer *pb, cpu_ring *cr, const struct perf_event_attr *a,
                    uint32_t data_pages, unsigned flags)
{
	struct perf_event_attr attr = *a;
	struct epoll_event ev;
	int err;

	err = rp_perf_open(&attr, -1, cr->cpu, -1, 0, &cr->fd, NULL);
	if (err)
		return err;
	err = rp_perf_ring_map(&cr->ring, cr->fd, data_pages ? data_pages : DEFAULT_PAGES,
	                       flags);
	if (err)
		return err;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.u32 = (uint32_t)(cr - pb->rings);
	if (epoll_ctl(pb->epoll_fd, EPOLL_CTL_ADD, cr->fd, &ev) < 0)
		return -errno;
	return 0;
}

/* Store the ring's fd at its key and enable the event: the last step of a
 * new set, once every CPU is open, so that a set that fails to open leaves
 * the map as it was (another set may be using it). */
static int bind_cpu(rp_perf_buffer *pb, cpu_ring *cr)
{
	uint32_t key = (uint32_t)cr->key;
	uint32_t value = (uint32_t)cr->fd;
	int err = bpf_map_update_elem(pb->map_fd, &key, &value, BPF_ANY);

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
			uint32_t key = (uint32_t)cr->key;
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
	free(pb->left_out);
	free(pb);
}

/* Callbacks of a new set: exactly one kind is set. */
typedef struct buffer_fns {
	rp_perf_record_fn fn;
	rp_perf_sample_fn sample;
	rp_perf_lost_fn lost;
	rp_perf_buffer_batch_fn batch;
	rp_perf_buffer_samples_fn samples;
	void *ctx;
} buffer_fns;

/* The CPUs and keys of a new set. */
typedef struct buffer_cpus {
	uint32_t n;
	const int *cpus;
	const int *keys; /* NULL: key = cpu */
} buffer_cpus;

static int buffer_new(int map_fd, bool own_map_fd, const struct perf_event_attr *attr,
                      uint32_t data_pages, unsigned flags, const buffer_cpus *want,
                      const buffer_fns *fns, rp_perf_buffer **out)
{
	int *online = NULL;
	uint32_t nonline = 0, max_entries = 0, nfit = 0, i;
	rp_perf_buffer *pb = NULL;
	int err;

	if (out)
		*out = NULL;
	if (!out || (flags & ~(unsigned)RP_PERF_BUFFER_FLAGS)) {
		err = -EINVAL;
		goto fail_map;
	}
	if (map_fd < 0) {
		err = -EBADF;
		goto fail_map;
	}
	if (data_pages & (data_pages - 1)) {
		err = RP_E_PAGE_COUNT;
		goto fail_map;
	}
	err = check_map(map_fd, &max_entries);
	if (err)
		goto fail_map;
	if (!want->n) {
		online = malloc(MAX_CPUS * sizeof(int));
		if (!online) {
			err = -ENOMEM;
			goto fail_map;
		}
		err = rp_online_cpus(online, MAX_CPUS, &nonline);
		if (err)
			goto fail_map;
	}
	const uint32_t ncand = want->n ? want->n : nonline;
	pb = calloc(1, sizeof(*pb) + ncand * sizeof(cpu_ring));
	if (!pb || !(pb->left_out = calloc(ncand, sizeof(int)))) {
		free(pb);
		pb = NULL;
		err = -ENOMEM;
		goto fail_map;
	}
	pb->map_fd = map_fd;
	pb->own_map_fd = own_map_fd;
	pb->fn = fns->fn;
	pb->sample_fn = fns->sample;
	pb->lost_fn = fns->lost;
	pb->batch_fn = fns->batch;
	pb->samples_fn = fns->samples;
	pb->ctx = fns->ctx;
	pb->epoll_fd = -1;
	for (i = 0; i < ncand; i++) {
		const int cpu = want->n ? want->cpus[i] : online[i];
		const int key = want->n && want->keys ? want->keys[i] : cpu;
		if (key < 0 || (uint32_t)key >= max_entries) {
			/* as libbpf: a CPU without a map slot is left out */
			pb->left_out[pb->nleft_out++] = cpu;
			continue;
		}
		pb->rings[nfit].cpu = cpu;
		pb->rings[nfit].key = key;
		pb->rings[nfit].fd = -1;
		nfit++;
	}
	pb->n = nfit;
	free(online);
	online = NULL;
	if (nfit == 0) {
		err = RP_E_MAP_SMALL;
		goto fail;
	}
	pb->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (pb->epoll_fd < 0) {
		err = -errno;
		goto fail;
	}
	for (i = 0; i < nfit; i++) {
		err = open_cpu(pb, &pb->rings[i], attr, data_pages, flags);
		if (err)
			goto fail;
	}
	for (i = 0; i < nfit; i++) {
		err = bind_cpu(pb, &pb->rings[i]);
		if (err)
			goto fail;
	}
	*out = pb;
	return 0;
fail:
	rp_perf_buffer_free(pb); /* closes an owned map fd too */
	return err;
fail_map:
	free(online);
	if (own_map_fd && map_fd >= 0)
		close(map_fd);
	return err;
}

/* The BPF-output attr of the convenience constructors. */
static void output_attr(struct perf_event_attr *attr, const rp_perf_buffer_opts *o)
{
	rp_attr_init_bpf_output(attr);
	if (o->wakeup_bytes)
		rp_attr_set_wakeup_bytes(attr, o->wakeup_bytes);
	else
		rp_attr_set_wakeup_events(attr, o->wakeup_events ? o->wakeup_events : 1);
}

static int output_new(int map_fd, bool own_map_fd, const rp_perf_buffer_opts *opts,
                      const buffer_fns *fns, rp_perf_buffer **out)
{
	rp_perf_buffer_opts o = { 0 };
	struct perf_event_attr attr;
	const buffer_cpus all = { 0, NULL, NULL };

	if (opts)
		o = *opts;
	output_attr(&attr, &o);
	return buffer_new(map_fd, own_map_fd, &attr, o.data_pages, o.ring_flags, &all, fns, out);
}

int rp_perf_buffer_new(int map_fd, const rp_perf_buffer_opts *opts,
                       rp_perf_record_fn fn, void *ctx, rp_perf_buffer **out)
{
	const buffer_fns fns = { fn, NULL, NULL, NULL, NULL, ctx };

	if (!fn) {
		if (out)
			*out = NULL;
		return -EINVAL;
	}
	return output_new(map_fd, false, opts, &fns, out);
}

int rp_perf_buffer_new_payload(int map_fd, const rp_perf_buffer_opts *opts,
                               rp_perf_sample_fn sample, rp_perf_lost_fn lost,
                               void *ctx, rp_perf_buffer **out)
{
	const buffer_fns fns = { NULL, sample, lost, NULL, NULL, ctx };

	return output_new(map_fd, false, opts, &fns, out);
}

int rp_perf_buffer_new_batch(int map_fd, const rp_perf_buffer_opts *opts,
                             rp_perf_buffer_batch_fn fn, void *ctx,
                             rp_perf_buffer **out)
{
	const buffer_fns fns = { NULL, NULL, NULL, fn, NULL, ctx };

	if (!fn) {
		if (out)
			*out = NULL;
		return -EINVAL;
	}
	return output_new(map_fd, false, opts, &fns, out);
}

int rp_perf_buffer_new_samples(int map_fd, const rp_perf_buffer_opts *opts,
                               rp_perf_buffer_samples_fn samples, rp_perf_lost_fn lost,
                               void *ctx, rp_perf_buffer **out)
{
	const buffer_fns fns = { NULL, NULL, lost, NULL, samples, ctx };

	if (!samples) {
		if (out)
			*out = NULL;
		return -EINVAL;
	}
	return output_new(map_fd, false, opts, &fns, out);
}

int rp_perf_buffer_new_pinned(const char *path, const rp_perf_buffer_opts *opts,
                              rp_perf_record_fn fn, void *ctx,
                              rp_perf_buffer **out)
{
	const buffer_fns fns = { fn, NULL, NULL, NULL, NULL, ctx };
	int fd;

	if (out)
		*out = NULL;
	if (!path || !fn)
		return -EINVAL;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return fd; /* libbpf 1.x: -errno */
	return output_new(fd, true, opts, &fns, out);
}

int rp_perf_buffer_new_raw(int map_fd, const struct perf_event_attr *attr,
                           const rp_perf_buffer_raw_opts *opts,
                           rp_perf_record_fn fn, void *ctx, rp_perf_buffer **out)
{
	const buffer_fns fns = { fn, NULL, NULL, NULL, NULL, ctx };
	rp_perf_buffer_raw_opts o = { 0 };
	struct perf_event_attr a;

	if (out)
		*out = NULL;
	if (opts)
		o = *opts;
	if (!attr || !fn || (o.cpu_cnt && !o.cpus))
		return -EINVAL;
	a = *attr;
	if (a.size == 0)
		a.size = sizeof(a);
	const buffer_cpus want = { o.cpu_cnt, o.cpus, o.map_keys };
	return buffer_new(map_fd, false, &a, o.data_pages, o.ring_flags, &want, &fns, out);
}

/* poll's wait: the rings epoll reports (perf_poll: once per wakeup). */
static int epoll_ready(rp_perf_buffer *pb, int timeout_ms, uint32_t *ready, uint32_t max)
{
	struct epoll_event evs[RP_PERF_BUFFER_WAIT_MAX];
	int n, i;

	if (max > RP_PERF_BUFFER_WAIT_MAX)
		max = RP_PERF_BUFFER_WAIT_MAX;
	n = epoll_wait(pb->epoll_fd, evs, (int)max, timeout_ms);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++)
		ready[i] = evs[i].data.u32;
	return n;
}

int rp_perf_buffer_poll(rp_perf_buffer *pb, int timeout_ms)
{
	if (!pb)
		return -EINVAL;
	return rp_perf_buffer_poll_wait(pb, timeout_ms, epoll_ready);
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
