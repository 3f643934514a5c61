/* BPF ring buffers (BPF_MAP_TYPE_RINGBUF) drained through the verified core.
 *
 * Mapping (SPEC.md §7): the consumer page (consumer_pos) is mapped
 * read-write, exactly one page; the producer page (producer_pos) and the
 * data area, which the kernel maps twice in a row, are mapped read-only
 * (page + 2 * size).  The core walks only the first copy and returns spans
 * that may wrap; because of the double mapping the adapter hands callers
 * one contiguous pointer per record.
 *
 * Ordering: producer_pos is acquire-loaded; the core then reads each
 * header's len word once, and an acquire fence after the core's batch and
 * before any payload is handed out orders those len loads before the
 * payload reads (a plain load + fence is an acquire load on x86-64 and
 * arm64).  consumer_pos is release-stored once per batch, after the
 * callbacks for that batch returned.
 *
 * Losses: the kernel keeps no drop counter for ring buffers
 * (bpf_ringbuf_output/reserve just fail).  Count failures on the BPF side:
 * keep a counter in an ARRAY map and increment it when reserve returns NULL
 * or output returns non-zero (bpf/ringbuf_test.bpf.c does exactly that).
 *
 * Functions return 0 or a count on success, a negative code on failure
 * (-errno, RP_E_*; see rp_error.h).  Nothing prints.
 */
#ifndef RP_RINGBUF_LINUX_H
#define RP_RINGBUF_LINUX_H

#include <stddef.h>
#include <stdint.h>

#include "rp_ringbuf.h"

enum rp_ringbuf_flags {
	RP_RINGBUF_STRICT = 1u << 0, /* stop on a corrupt ring instead of resyncing */
};

/* Cumulative counters of one ring buffer. */
typedef struct rp_ringbuf_stats {
	uint64_t records;        /* records delivered */
	uint64_t bytes;          /* their payload bytes */
	uint64_t discarded;      /* DISCARD records consumed, not delivered */
	uint64_t busy_stops;     /* drains that stopped at an uncommitted record */
	uint64_t corrupt;        /* corrupt-ring events */
	uint64_t resynced_bytes; /* bytes skipped by resynchronising to producer */
	int last_error;          /* last corruption status, 0 if none */
} rp_ringbuf_stats;

/* Called for each committed, non-discarded record: len payload bytes at
 * data (contiguous, borrowed: valid only during the call).  Return 0 to go
 * on, non-zero to stop after this record (it counts as consumed). */
typedef int (*rp_ringbuf_fn)(void *ctx, const void *data, uint32_t len);

typedef struct rp_ringbuf {
	int map_fd;          /* not owned */
	unsigned flags;      /* enum rp_ringbuf_flags */
	size_t page_size;
	void *cons_page;     /* consumer page, RW */
	void *prod_map;      /* producer page + 2 * size, RO */
	size_t prod_len;
	rp_ring data;        /* first copy of the data area */
	rp_ringbuf_fn fn;
	void *ctx;
	rp_ringbuf_stats stats;
} rp_ringbuf;

/* Map a BPF_MAP_TYPE_RINGBUF map.  RP_E_RB_MAP_TYPE if the fd is another
 * kind of map, RP_E_RB_MAP_SIZE if max_entries is not a power-of-two
 * multiple of the page size.  On error nothing stays mapped. */
int rp_ringbuf_map(rp_ringbuf *rb, int map_fd, rp_ringbuf_fn fn, void *ctx,
                   unsigned flags);
/* Unmap; safe on a zeroed or unmapped ring.  Does not close map_fd. */
void rp_ringbuf_unmap(rp_ringbuf *rb);

/* Acquire-load producer_pos / consumer_pos. */
uint64_t rp_ringbuf_producer(const rp_ringbuf *rb);
uint64_t rp_ringbuf_consumer(const rp_ringbuf *rb);

/* Deliver every committed record, batch by batch, re-reading producer_pos
 * until nothing new arrives or a BUSY record blocks the walk (it is retried
 * on the next call).  max_records 0 = no limit.  Returns the number of
 * records delivered, or (strict policy) a negative RP_E_* status. */
int rp_ringbuf_consume(rp_ringbuf *rb, uint32_t max_records);

/* A set of ring buffers behind one epoll instance. */
typedef struct rp_ringbuf_set rp_ringbuf_set;

int rp_ringbuf_set_new(rp_ringbuf_set **out);
/* Map another ring buffer into the set; returns its index (>= 0). */
int rp_ringbuf_set_add(rp_ringbuf_set *set, int map_fd, rp_ringbuf_fn fn,
                       void *ctx, unsigned flags);
/* Wait up to timeout_ms (-1 = forever) for data, then drain every ring of
 * the set.  Returns the records delivered (0 on timeout) or a negative code. */
int rp_ringbuf_set_poll(rp_ringbuf_set *set, int timeout_ms);
/* Drain every ring without waiting. */
int rp_ringbuf_set_consume(rp_ringbuf_set *set);
int rp_ringbuf_set_epoll_fd(const rp_ringbuf_set *set);
uint32_t rp_ringbuf_set_count(const rp_ringbuf_set *set);
int rp_ringbuf_set_stats(const rp_ringbuf_set *set, uint32_t idx,
                         rp_ringbuf_stats *out);
/* Unmaps every ring, closes the epoll fd (map fds stay open), frees. */
void rp_ringbuf_set_free(rp_ringbuf_set *set);

#endif
