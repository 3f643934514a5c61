/* The perf buffer set's delivery and scheduling: the set's callbacks over
 * each ring's drain, the pending rings (perf_poll reports a ring once per
 * wakeup), consume, poll's drain after its wait, resync, stats.  No libbpf,
 * no system call: the wait is rp_perf_buffer_open.c's (epoll_wait), so that
 * a fuzz harness compiles this file over in-memory rings
 * (fuzz/harness_perf_buffer.c). */
#include <errno.h>
#include <stdint.h>

#include "rp_perf_buffer_int.h"

typedef rp_perf_buffer_cpu cpu_ring;

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
		if (!pb->sample_fn && !pb->samples_fn)
			return 0;
		/* In one piece, as the sample drains hand their samples over.  A
		 * sample reaches this path in payload or samples mode only if
		 * the ring changed under the walk (the walk refused it a moment
		 * ago): it goes to the mode's callback, in samples mode as a
		 * batch of one.  If it wraps and no memory is left to copy it,
		 * it is consumed and the drain returns -ENOMEM. */
		const uint8_t *p = rp_perf_ring_contiguous(&dc->cr->ring, &out.data);
		if (!p)
			return -ENOMEM;
		dc->calls++;
		if (pb->samples_fn) {
			const rp_payload one = { p, out.raw_size };
			return pb->samples_fn(pb->ctx, cpu, &one, 1);
		}
		return pb->sample_fn(pb->ctx, cpu, p, out.raw_size);
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
static int on_samples(void *p, const rp_payload *s, uint32_t n)
{
	drain_ctx *dc = p;
	int r = dc->pb->samples_fn(dc->pb->ctx, dc->cr->cpu, s, n);

	dc->calls += n;
	if (r)
		dc->stopped = true;
	return r;
}

/* Payload mode with a sample callback: one BPF-output payload from the
 * fused walk, contiguous (rp_perf_ring_drain_payloads); the other records
 * go to on_record (LOST to lost_fn, the rest counted as malformed), as
 * deliver does. */
static int on_payload(void *p, const void *data, uint32_t size)
{
	drain_ctx *dc = p;
	int r;

	dc->calls++;
	r = dc->pb->sample_fn(dc->pb->ctx, dc->cr->cpu, data, size);
	if (r)
		dc->stopped = true;
	return r;
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
 * per wakeup: waiting for epoll again would strand them).  The call returns
 * the count or the callback's error then, else the first strict ring's
 * status.  A strict ring's status the call does not return is kept for a
 * later drain (the ring stays pending, and a drain of a stopped ring
 * returns its status at once) rather than lost: a stopped ring that fills
 * up is never reported by epoll again. */
static int consume_pending(rp_perf_buffer *pb)
{
	uint64_t total = 0;
	int first_err = 0;
	uint32_t err_idx = 0, j;

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
			if (first_err)
				set_pending(pb, &pb->rings[err_idx], true);
			return r < 0 ? r : clamp_count(total); /* a callback's error, or the count */
		}
		if (r < 0 && !first_err) {
			first_err = r; /* this ring is stopped; the others go on */
			err_idx = idx;
		} else if (r < 0) {
			set_pending(pb, &pb->rings[idx], true); /* a second status: the next drain's */
		}
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

/* Wait up to timeout_ms, mark the rings the wait reports, drain the pending. */
static int wait_and_consume(rp_perf_buffer *pb, int timeout_ms, rp_perf_buffer_wait_fn wait)
{
	uint32_t ready[RP_PERF_BUFFER_WAIT_MAX];
	int n = wait(pb, timeout_ms, ready, RP_PERF_BUFFER_WAIT_MAX);

	if (n < 0)
		return n;
	return rp_perf_buffer_ready_consume(pb, ready, (uint32_t)n);
}

int rp_perf_buffer_ready_consume(rp_perf_buffer *pb, const uint32_t *ready, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (ready[i] < pb->n)
			set_pending(pb, &pb->rings[ready[i]], true);
	return consume_pending(pb);
}

int rp_perf_buffer_poll_wait(rp_perf_buffer *pb, int timeout_ms, rp_perf_buffer_wait_fn wait)
{
	int r;

	if (pb->npending) {
		/* records a stop left behind are ready now: no wait for them;
		 * only if none were left (the stop was on a ring's last record)
		 * does the poll go on to wait */
		r = wait_and_consume(pb, 0, wait);
		if (r != 0 || pb->npending || timeout_ms == 0)
			return r;
	}
	return wait_and_consume(pb, timeout_ms, wait);
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
