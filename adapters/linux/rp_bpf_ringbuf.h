/* BPF ring buffers (BPF_MAP_TYPE_RINGBUF) drained through the verified core.
 *
 * Mapping (docs/abi.md): the consumer page (consumer_pos) is mapped
 * read-write, exactly one page; the producer page (producer_pos) and the
 * data area, which the kernel maps twice in a row, are mapped read-only
 * (page + 2 * size).  The core walks only the first copy and returns spans
 * that may wrap; because of the double mapping the adapter hands callers
 * one contiguous pointer per record.
 *
 * Ordering: producer_pos is acquire-loaded; the core then reads each
 * header's len word once, and an acquire fence before a payload is handed
 * out orders the len loads before the payload reads (a plain load + fence
 * is an acquire load on x86-64 and arm64): after the core's batch for the
 * batch callback, after each record's len word for the per-record callback
 * (which runs on the core's iterator, rp_rb_iter).  consumer_pos is
 * release-stored after the callbacks that read the records returned: at the
 * end of each per-record walk, after each batch's callback.
 *
 * Losses: the kernel keeps no drop counter for ring buffers
 * (bpf_ringbuf_output/reserve just fail).  Count failures on the BPF side:
 * keep a counter in an ARRAY map and increment it when reserve returns NULL
 * or output returns non-zero (bpf/ringbuf_test.bpf.c does exactly that).
 *
 * Functions return 0 or a count on success, a negative code on failure
 * (-errno, RP_E_*; see rp_error.h).  Nothing prints.
 */
#ifndef RP_BPF_RINGBUF_H
#define RP_BPF_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

#include "rp_adapter.h"
#include "rp_ringbuf.h"

#ifdef __cplusplus
extern "C" {
#endif


/* Cumulative counters of one ring buffer.  Counters saturate, never wrap. */
typedef struct rp_bpf_ringbuf_stats {
	uint64_t records;        /* records delivered */
	uint64_t record_bytes;   /* bytes they occupied: 8-byte header + padded payload */
	uint64_t payload_bytes;  /* their payload bytes (len) */
	uint64_t discarded;      /* DISCARD records consumed, not delivered */
	uint64_t busy_stops;     /* drains that stopped at an uncommitted record */
	uint64_t corrupt;        /* corruption events (each distinct bad state once) */
	uint64_t resynced_bytes; /* bytes skipped by resynchronising to producer */
	int last_error;          /* last corruption status, 0 if none */
} rp_bpf_ringbuf_stats;

/* Called for each committed, non-discarded record: len payload bytes at
 * data (contiguous, borrowed: valid only during the call).  Return 0 to go
 * on; > 0 to stop after this record (it counts as consumed); < 0 to stop
 * likewise and have consume/poll return that value (as libbpf does). */
typedef int (*rp_bpf_ringbuf_fn)(void *ctx, const void *data, uint32_t len);

/* Batch delivery: called once per batch with recs[0 .. n - 1] (n >= 1, at
 * most RP_BPF_RINGBUF_BATCH, in ring order; discarded records are not
 * delivered): what the per-record callback gets, as rp_payload pairs.  Return values as rp_bpf_ringbuf_fn; a non-zero return
 * consumes the whole batch.  After the first batch of a consume, each
 * batch takes about as many records as span RP_BATCH_BYTES of the ring
 * (rp_adapter.h), but at least RP_BPF_RINGBUF_BATCH_MIN: one to three
 * records of 256 bytes and up per batch paid a batch's fixed cost each
 * (with a callback that reads two bytes of each, 1.1-2.1 times libbpf's
 * time; 0.8-0.9 with the floor; bench/RESULTS.md, Run AB). */
typedef int (*rp_bpf_ringbuf_batch_fn)(void *ctx, const rp_payload *recs, uint32_t n);

#define RP_BPF_RINGBUF_BATCH 64u
#define RP_BPF_RINGBUF_BATCH_MIN 8u

typedef struct rp_bpf_ringbuf {
	int map_fd;          /* not owned */
	unsigned flags;      /* enum rp_adapter_flags (RP_BPF_RINGBUF_FLAGS) */
	size_t page_size;
	void *cons_page;     /* consumer page, RW */
	void *prod_map;      /* producer page + 2 * size, RO */
	size_t prod_len;
	rp_ring data;        /* first copy of the data area */
	rp_bpf_ringbuf_fn fn;        /* exactly one of fn and batch_fn is set */
	rp_bpf_ringbuf_batch_fn batch_fn;
	void *ctx;
	uint64_t consumer;   /* our consumer position: consumer_pos is writable by
	                        anyone who maps the ring, so it is never read back */
	uint64_t bad_producer; /* last untrusted producer_pos (if bad_seen) */
	int bad_seen;
	int error;           /* strict mode: status the ring is stopped at, 0 = ok */
	rp_bpf_ringbuf_stats stats;
} rp_bpf_ringbuf;

/* Map a BPF_MAP_TYPE_RINGBUF map.  RP_E_RB_MAP_TYPE if the fd is another
 * kind of map, RP_E_RB_MAP_SIZE if max_entries is not a power-of-two
 * multiple of the page size, -EBADF for a bad fd, -EINVAL for flags outside
 * RP_BPF_RINGBUF_FLAGS.  On error nothing stays mapped. */
int rp_bpf_ringbuf_map(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_fn fn, void *ctx,
                       unsigned flags);
/* The same with batch delivery. */
int rp_bpf_ringbuf_map_batch(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_batch_fn fn,
                             void *ctx, unsigned flags);
/* Unmap; safe on a zeroed or unmapped ring.  Does not close map_fd. */
void rp_bpf_ringbuf_unmap(rp_bpf_ringbuf *rb);

/* Acquire-load producer_pos / consumer_pos from the shared pages. */
uint64_t rp_bpf_ringbuf_producer(const rp_bpf_ringbuf *rb);
uint64_t rp_bpf_ringbuf_consumer(const rp_bpf_ringbuf *rb);
/* Bytes between our consumer position and producer_pos (as libbpf's
 * ring__avail_data_size); 0 if producer_pos is not trustworthy. */
uint64_t rp_bpf_ringbuf_avail(const rp_bpf_ringbuf *rb);
/* The data area size in bytes (ring__size). */
uint64_t rp_bpf_ringbuf_size(const rp_bpf_ringbuf *rb);

/* Deliver every committed record, batch by batch, re-reading producer_pos
 * until nothing new arrives or a BUSY record blocks the walk (it is retried
 * on the next call).  max_records 0 = no limit.  Returns the number of
 * records delivered (>= 0), or a negative code: a callback's negative
 * return, or (RP_STRICT) the RP_E_* status of a corrupt ring.
 *
 * Corrupt ring, default policy:
 *   - consumer_pos found different from what this consumer published
 *     (someone wrote it): it is restored, counted once;
 *   - producer_pos trusted only if 8-aligned and at most the ring size
 *     ahead of the consumer: the consumer then skips the unreadable bytes
 *     up to it (stats.resynced_bytes);
 *   - any other producer_pos (misaligned, too far ahead, behind) is not
 *     trusted: the consumer stays after the last good record; the same bad
 *     value is counted once; the next record the kernel commits is
 *     delivered once producer_pos is sane again.
 * RP_STRICT: the records before the corruption are consumed, the ring stops
 * (rb->error) and returns that status until rp_bpf_ringbuf_resync. */
int rp_bpf_ringbuf_consume(rp_bpf_ringbuf *rb, uint32_t max_records);
/* Apply the default policy once and clear rb->error.  Returns 0. */
int rp_bpf_ringbuf_resync(rp_bpf_ringbuf *rb);

/* A set of ring buffers behind one epoll instance (libbpf's ring_buffer). */
typedef struct rp_bpf_ringbuf_set rp_bpf_ringbuf_set;

int rp_bpf_ringbuf_set_new(rp_bpf_ringbuf_set **out);
/* Map another ring buffer into the set; returns its index (>= 0). */
int rp_bpf_ringbuf_set_add(rp_bpf_ringbuf_set *set, int map_fd, rp_bpf_ringbuf_fn fn,
                           void *ctx, unsigned flags);
int rp_bpf_ringbuf_set_add_batch(rp_bpf_ringbuf_set *set, int map_fd,
                                 rp_bpf_ringbuf_batch_fn fn, void *ctx, unsigned flags);
/* Wait up to timeout_ms (-1 = forever) for data, then drain every ring of
 * the set.  Returns the records delivered (0 on timeout), -EINTR if a signal came
 * first (as libbpf), or the
 * first negative code after every other ring was drained (a strict ring's
 * RP_E_* status: rp_bpf_ringbuf_set_error names the ring), or a callback's
 * negative return (the drain stops there).  A callback's positive return
 * stops the whole drain after that record: the rest of its ring and the
 * rings after it wait for the next call (their fds stay readable). */
int rp_bpf_ringbuf_set_poll(rp_bpf_ringbuf_set *set, int timeout_ms);
/* Drain every ring without waiting; returns as rp_bpf_ringbuf_set_poll. */
int rp_bpf_ringbuf_set_consume(rp_bpf_ringbuf_set *set);
/* Drain ring idx only, at most n records (0 = no limit): ring__consume_n. */
int rp_bpf_ringbuf_set_consume_ring(rp_bpf_ringbuf_set *set, uint32_t idx, uint32_t n);
/* Drain the rings in order, at most n records in all (ring_buffer__consume_n). */
int rp_bpf_ringbuf_set_consume_n(rp_bpf_ringbuf_set *set, uint32_t n);
/* The ring at idx (ring_buffer__ring), NULL if out of range. */
rp_bpf_ringbuf *rp_bpf_ringbuf_set_ring(rp_bpf_ringbuf_set *set, uint32_t idx);
/* The status ring idx is stopped at (strict), 0 if healthy, -EINVAL if idx
 * is out of range. */
int rp_bpf_ringbuf_set_error(const rp_bpf_ringbuf_set *set, uint32_t idx);
/* rp_bpf_ringbuf_resync on ring idx. */
int rp_bpf_ringbuf_set_resync(rp_bpf_ringbuf_set *set, uint32_t idx);
int rp_bpf_ringbuf_set_epoll_fd(const rp_bpf_ringbuf_set *set);
uint32_t rp_bpf_ringbuf_set_count(const rp_bpf_ringbuf_set *set);
int rp_bpf_ringbuf_set_stats(const rp_bpf_ringbuf_set *set, uint32_t idx,
                             rp_bpf_ringbuf_stats *out);
/* Unmaps every ring, closes the epoll fd (map fds stay open), frees. */
void rp_bpf_ringbuf_set_free(rp_bpf_ringbuf_set *set);

#ifdef __cplusplus
}
#endif

#endif
