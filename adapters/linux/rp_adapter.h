/* Conventions shared by every Linux adapter (perf rings, perf buffer sets,
 * BPF ring buffers, backward and overwrite perf rings).
 *
 * Flags: one bit space for every adapter, so a flag means the same thing
 * wherever it is accepted; a function rejects bits it does not know with
 * -EINVAL instead of ignoring them.
 */
#ifndef RP_ADAPTER_H
#define RP_ADAPTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One payload of a batch, as both kinds of ring hand them to a batch
 * callback (rp_perf_ring_drain_samples and rp_perf_buffer's samples mode,
 * rp_bpf_ringbuf_map_batch): size bytes at data, in one piece, borrowed
 * (valid only during the call).  A BPF ring buffer's payload is always in
 * one piece (the kernel maps the data twice in a row); a perf ring's that
 * wraps the ring end is copied, as libbpf copies it. */
typedef struct rp_payload {
	const void *data;
	uint32_t size;
} rp_payload;

enum rp_adapter_flags {
	/* Map a perf ring PROT_READ only, so the kernel overwrites old data
	 * (write_backward events; rp_perf_overwrite.h).  Perf rings only. */
	RP_PERF_OVERWRITE = 1u << 0,
	/* On a corrupt ring, stop that ring and report the RP_E_* status
	 * instead of resynchronising past the corruption.  Every adapter. */
	RP_STRICT = 1u << 1,
	/* Prefetch the ring 2 KiB ahead of the walk in the forward perf
	 * drains.  Off by default, as libbpf: it pays where the hardware does
	 * not stream a ring the kernel has just filled (one Intel Xeon: the
	 * drains 1.2 to 3 times as fast, faster than libbpf's), and costs
	 * where it does (one AMD EPYC: 2 to 4 % for a consumer that reads
	 * every byte; for one that reads two bytes of each 512-byte record,
	 * 1.33 to 1.40 times libbpf's time against 0.89 to 0.91 without it).
	 * `make bench` shows both on a host (bench/RESULTS.md, Runs R and AD).
	 * Perf rings only. */
	RP_PERF_PREFETCH = 1u << 2,
};

/* The flags each kind of adapter accepts. */
#define RP_PERF_RING_FLAGS (RP_PERF_OVERWRITE | RP_STRICT | RP_PERF_PREFETCH)
#define RP_PERF_BUFFER_FLAGS (RP_STRICT | RP_PERF_PREFETCH)
#define RP_BPF_RINGBUF_FLAGS (RP_STRICT)

/* Batch delivery (rp_perf_ring_drain_batch and _samples, rp_perf_buffer's
 * batch callback, rp_bpf_ringbuf_map_batch): a drain's first batch takes
 * up to the array's size (RP_PERF_BATCH, RP_BPF_RINGBUF_BATCH); each later
 * one about as many records as span RP_BATCH_BYTES of the ring, given the
 * sizes of the batch before (at least one; a BPF ring buffer's at least
 * RP_BPF_RINGBUF_BATCH_MIN, rp_bpf_ringbuf.h).  Measured, not derived: the
 * same bytes in larger batches cost more per record (the payloads are read
 * after the walk has gone ahead; bench/RESULTS.md, Runs H, R and AB). */
#define RP_BATCH_BYTES 1024u

#ifdef __cplusplus
}
#endif

#endif
