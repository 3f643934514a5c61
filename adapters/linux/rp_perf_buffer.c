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
	int key;     /* map key */
	int fd;
	bool in_map; /* map slot written by us */
	bool pending; /* epoll reported it, its records not all consumed yet */
	rp_perf_ring ring;
} cpu_ring;

struct rp_perf_buffer {
	int map_fd;
	bool own_map_fd;
	int epoll_fd;
	rp_perf_record_fn fn;
	rp_perf_sample_fn sample_fn;
	rp_perf_lost_fn lost_fn;
	rp_perf_buffer_batch_fn batch_fn;
	rp_perf_buffer_samples_fn samples_fn;
	void *ctx;
	int *left_out;     /* online CPUs without a map entry */
	uint32_t nleft_out;
	uint32_t npending; /* rings with pending set */
	uint32_t resume;   /* where the next drain of pending rings starts */
	uint32_t n;
	cpu_ring rings[];
};

/* Bridges a ring's callback to the set's callbacks. */
typedef struct drain_ctx {
	rp_perf_buffer *pb;
	cpu_ring *cr;
	uint64_t calls; /* callbacks made: what the drain returns */
	bool stopped;   /* a callback returned non-zero */
} drain_ctx;

static int deliver(drain_ctx *dc, const rp_record *rec)
{
	rp_perf_buffer *pb = dc->pb;
	const int cpu = dc->cr->cpu;

	if (pb->fn) {
		dc->calls++;
		return pb->fn(pb->ctx, cpu, rec);
	}
	if (rec->type == RP_RECORD_SAMPLE) {
		rp_bpf_output out;
		if (rp_bpf_output_view(rec, &out) != RP_OK)
			goto malformed;
		if (!pb->sample_fn)
			return 0;
		dc->calls++;
		return pb->sample_fn(pb->ctx, cpu, &out);
	}
	if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) != RP_OK)
			goto malformed;
		if (!pb->lost_fn)
			return 0;
		dc->calls++;
		return pb->lost_fn(pb->ctx, cpu, l.lost);
	}
malformed:
	dc->cr->ring.stats.malformed++;
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

static int on_batch(void *p, const rp_record *recs, uint32_t n)
{
	drain_ctx *dc = p;
	int r = dc->pb->batch_fn(dc->pb->ctx, dc->cr->cpu, recs, n);

	dc->calls += n;
	if (r)
		dc->stopped = true;
	return r;
}

/* Sample batches; the records between them (LOST and the rest) go to
 * on_record, which reports them as payload mode does. */
static int on_samples(void *p, const rp_bpf_sample *s, uint32_t n)
{
	drain_ctx *dc = p;
	int r = dc->pb->samples_fn(dc->pb->ctx, dc->cr->cpu, s, n);

	dc->calls += n;
	if (r)
		dc->stopped = true;
	return r;
}

/* Payload mode with a sample callback: one BPF-output sample from the
 * fused walk; the other records go to on_record (LOST to lost_fn, the
 * rest counted as malformed), as deliver does. */
static int on_payload(void *p, const rp_bpf_sample *s)
{
	drain_ctx *dc = p;
	rp_bpf_output out;
	int r;

	out.raw_size = s->raw_size;
	out.data = s->data;
	dc->calls++;
	r = dc->pb->sample_fn(dc->pb->ctx, dc->cr->cpu, &out);
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

static int clamp_count(uint64_t n)
{
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

static void set_pending(rp_perf_buffer *pb, cpu_ring *cr, bool pending)
{
	if (cr->pending != pending) {
		cr->pending = pending;
		pb->npending += pending ? 1 : (uint32_t)-1;
	}
}

/* Drain ring idx; *dc receives the callbacks made and whether one stopped.
 * The ring stays pending while records remain that a stop left behind (a
 * strict ring stopped at a corruption is not: resync makes it pending). */
static int consume_ring(rp_perf_buffer *pb, uint32_t idx, drain_ctx *dc)
{
	cpu_ring *cr = &pb->rings[idx];
	int r;

	dc->pb = pb;
	dc->cr = cr;
	dc->calls = 0;
	dc->stopped = false;
	if (pb->batch_fn)
		r = rp_perf_ring_drain_batch(&cr->ring, on_batch, dc, 0);
	else if (pb->samples_fn)
		r = rp_perf_ring_drain_samples(&cr->ring, on_samples, on_record, dc, 0);
	else if (pb->sample_fn && !pb->fn)
		r = rp_perf_ring_drain_payloads(&cr->ring, on_payload, on_record, dc, 0);
	else
		r = rp_perf_ring_drain(&cr->ring, on_record, dc, 0);
	set_pending(pb, cr, dc->stopped);
	return r;
}

/* Drain the pending rings, in ring order from where the last stop was.  A
 * callback's stop or error ends the drain; the rings not reached stay
 * pending, drained first by the next poll (perf_poll reports a ring once
 * per wakeup: waiting for epoll again would strand them). */
static int consume_pending(rp_perf_buffer *pb)
{
	uint64_t total = 0;
	int first_err = 0;
	uint32_t j;

	for (j = 0; j < pb->n && pb->npending; j++) {
		const uint32_t idx = (pb->resume + j) % pb->n;
		drain_ctx dc;
		int r;

		if (!pb->rings[idx].pending)
			continue;
		r = consume_ring(pb, idx, &dc);
		total += dc.calls;
		if (dc.stopped) {
			pb->resume = idx;
			if (r < 0)
				return r; /* a callback's error */
			break;
		}
		if (r < 0 && !first_err)
			first_err = r; /* this ring is stopped; the others go on */
	}
	return first_err ? first_err : clamp_count(total);
}

int rp_perf_buffer_consume_ring(rp_perf_buffer *pb, uint32_t idx)
{
	drain_ctx dc;
	int r;

	if (!pb || idx >= pb->n)
		return -EINVAL;
	r = consume_ring(pb, idx, &dc);
	return r < 0 ? r : clamp_count(dc.calls);
}

int rp_perf_buffer_consume(rp_perf_buffer *pb)
{
	uint32_t i;

	if (!pb)
		return -EINVAL;
	for (i = 0; i < pb->n; i++)
		set_pending(pb, &pb->rings[i], true);
	return consume_pending(pb);
}

/* Wait up to timeout_ms, mark the rings epoll reports, drain the pending. */
static int wait_and_consume(rp_perf_buffer *pb, int timeout_ms)
{
	struct epoll_event evs[64];
	int n, i;

	n = epoll_wait(pb->epoll_fd, evs, 64, timeout_ms);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++)
		if (evs[i].data.u32 < pb->n)
			set_pending(pb, &pb->rings[evs[i].data.u32], true);
	return consume_pending(pb);
}

int rp_perf_buffer_poll(rp_perf_buffer *pb, int timeout_ms)
{
	int r;

	if (!pb)
		return -EINVAL;
	if (pb->npending) {
		/* records a stop left behind are ready now: no wait for them;
		 * only if none were left (the stop was on a ring's last record)
		 * does the poll go on to wait */
		r = wait_and_consume(pb, 0);
		if (r != 0 || pb->npending || timeout_ms == 0)
			return r;
	}
	return wait_and_consume(pb, timeout_ms);
}

int rp_perf_buffer_ring_error(const rp_perf_buffer *pb, uint32_t idx)
{
	if (!pb || idx >= pb->n)
		return -EINVAL;
	return pb->rings[idx].ring.error;
}

int rp_perf_buffer_resync_ring(rp_perf_buffer *pb, uint32_t idx)
{
	if (!pb || idx >= pb->n)
		return -EINVAL;
	/* its records wait since the corruption: the next poll drains them */
	set_pending(pb, &pb->rings[idx], true);
	return rp_perf_ring_resync(&pb->rings[idx].ring);
}

uint32_t rp_perf_buffer_left_out(const rp_perf_buffer *pb, int *ids, uint32_t max)
{
	uint32_t i;

	if (!pb)
		return 0;
	for (i = 0; ids && i < max && i < pb->nleft_out; i++)
		ids[i] = pb->left_out[i];
	return pb->nleft_out;
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

int rp_perf_buffer_stats(const rp_perf_buffer *pb, int cpu, rp_perf_stats *out)
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
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; pb && i < pb->n; i++)
		sum += pb->rings[i].ring.stats.malformed;
	return sum;
}
