/* User ring buffers (BPF_MAP_TYPE_USER_RINGBUF): user space produces
 * records, a BPF program drains them with bpf_user_ringbuf_drain.  The
 * counterpart of libbpf's user_ring_buffer, with the header arithmetic and
 * every write into the ring done by the proved core (core/rp_user_ring.h).
 *
 * Mapping (what the kernel allows for this map type): the consumer page
 * (consumer_pos, written by the kernel) read-only, exactly one page; the
 * producer page (producer_pos) and the data area, mapped twice in a row,
 * read-write (page + 2 * size).  Because of the double mapping a reserved
 * sample is contiguous: reserve returns one pointer to len writable bytes.
 *
 * Ordering: consumer_pos is acquire-loaded before each reservation; the
 * core writes the header (len | BUSY) and producer_pos is then
 * release-stored, so the kernel never sees the position before the header.
 * Submit and discard clear BUSY with a release store of the header's flag
 * byte, so the payload written before is visible to the BPF program when
 * it sees the record committed.
 *
 * Records are drained in order; a pending (reserved, not yet committed)
 * record stops the drain there, and later records wait behind it.
 * Lengths: at most RP_UR_LEN_MAX (2^24 - 1) payload bytes, the most the
 * kernel's drain hands a program (longer records it would reject for good);
 * a record takes round_up(len + 8, 8) bytes of the ring.
 *
 * One producer thread per ring (as libbpf): the functions are not
 * thread-safe on one rp_bpf_user_ringbuf.  Nothing prints.
 */
#ifndef RP_BPF_USER_RINGBUF_H
#define RP_BPF_USER_RINGBUF_H

#include <stdint.h>

#include "rp_user_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_bpf_user_ringbuf rp_bpf_user_ringbuf;

/* Map the BPF_MAP_TYPE_USER_RINGBUF map_fd (not owned: stays open) and set
 * up an epoll instance waiting for room (EPOLLOUT).  Returns 0 and *out, or
 * a negative code with *out = NULL: -EINVAL (out NULL), -EBADF (bad fd),
 * RP_E_UR_MAP_TYPE (another kind of map, a kernel-producer RINGBUF too),
 * RP_E_UR_MAP_SIZE (max_entries not a power-of-two multiple of the page),
 * -ENOMEM, or the -errno of bpf_obj_get_info_by_fd (libbpf 1.1 has no bpf_map_get_info_by_fd), mmap or epoll. */
int rp_bpf_user_ringbuf_new(int map_fd, rp_bpf_user_ringbuf **out);

/* Reserve len payload bytes.  Returns a pointer to len contiguous writable
 * bytes, to be passed to _submit or _discard, or NULL with errno:
 *   ENOSPC  no room now (the BPF side has not drained enough yet);
 *   E2BIG   len > RP_UR_LEN_MAX, or the record is larger than the ring;
 *   EINVAL  ur is NULL;
 *   EPROTO  the positions are inconsistent (consumer_pos misaligned, or
 *           more than the ring size behind; nothing was written).
 * rp_bpf_user_ringbuf_last_error gives the precise RP_E_UR_* code. */
void *rp_bpf_user_ringbuf_reserve(rp_bpf_user_ringbuf *ur, uint32_t len);

/* Like _reserve, but waits up to timeout_ms (-1: forever) for room, woken by
 * the kernel after each drain that consumed a record (epoll, EPOLLOUT).
 * After the deadline one last attempt is made (as libbpf).  NULL with
 * errno: ENOSPC (still no room at the deadline), EINTR (a signal arrived
 * while waiting: no retry, as libbpf), EINVAL (timeout_ms < -1 or ur
 * NULL), or any errno of _reserve. */
void *rp_bpf_user_ringbuf_reserve_blocking(rp_bpf_user_ringbuf *ur, uint32_t len,
                                           int timeout_ms);

/* Commit a reservation: submit makes it visible to the BPF program, discard
 * makes the kernel skip it.  Returns 0, or -EINVAL (ur or sample NULL),
 * RP_E_UR_OFF (sample is not a pointer _reserve returned for this ring),
 * RP_E_UR_NOT_RESERVED (already submitted or discarded).  Unlike libbpf a
 * wrong or second commit is reported, never written. */
int rp_bpf_user_ringbuf_submit(rp_bpf_user_ringbuf *ur, void *sample);
int rp_bpf_user_ringbuf_discard(rp_bpf_user_ringbuf *ur, void *sample);

/* The RP_E_UR_* code (or -errno) of the last failed call, 0 if none. */
int rp_bpf_user_ringbuf_last_error(const rp_bpf_user_ringbuf *ur);
/* The data area size in bytes; 0 for NULL. */
uint64_t rp_bpf_user_ringbuf_size(const rp_bpf_user_ringbuf *ur);
/* Bytes not yet consumed by the kernel (producer - consumer_pos, reserved
 * records included); 0 for NULL. */
uint64_t rp_bpf_user_ringbuf_used(const rp_bpf_user_ringbuf *ur);
/* The epoll fd reserve_blocking waits on (EPOLLOUT), -EINVAL for NULL. */
int rp_bpf_user_ringbuf_epoll_fd(const rp_bpf_user_ringbuf *ur);

/* Unmap, close the epoll fd (map_fd stays open), free.  NULL is fine.
 * Pending reservations stay BUSY in the ring: the kernel stops there. */
void rp_bpf_user_ringbuf_free(rp_bpf_user_ringbuf *ur);

#ifdef __cplusplus
}
#endif

#endif
