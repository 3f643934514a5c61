/* What the BPF ring buffer adapter's files share (internal: not installed,
 * not exported).  rp_bpf_ringbuf.c walks one ring; rp_bpf_ringbuf_map.c
 * maps a map fd and binds the pages; rp_bpf_ringbuf_set.c drains several
 * rings behind one epoll fd. */
#ifndef RP_BPF_RINGBUF_INT_H
#define RP_BPF_RINGBUF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rp_adapter_int.h"
#include "rp_bpf_ringbuf.h"

/* Set up *rb (zeroed first) on a ring already in memory, as
 * rp_bpf_ringbuf_map leaves it: cons_page holds consumer_pos (read-write),
 * prod_map the producer page (producer_pos first) with the data area,
 * size bytes mapped twice in a row, page bytes after it.  The consumer
 * starts at consumer_pos aligned down to 8.  Arguments are not checked
 * (exactly one of fn and batch_fn non-NULL, flags within
 * RP_BPF_RINGBUF_FLAGS, size a power of two). */
void rp_bpf_ringbuf_bind_pages(rp_bpf_ringbuf *rb, int map_fd, void *cons_page,
                               void *prod_map, size_t page, uint64_t size,
                               rp_bpf_ringbuf_fn fn,
                               rp_bpf_ringbuf_batch_fn batch_fn, void *ctx,
                               unsigned flags);

/* rp_bpf_ringbuf_consume; *stopped tells a set whether a callback asked to
 * stop (a positive return, which the count alone cannot say). */
int rp_bpf_ringbuf_consume_stopped(rp_bpf_ringbuf *rb, uint32_t max_records,
                                   bool *stopped);

#endif
