/* Binding a BPF_MAP_TYPE_RINGBUF map fd to an rp_bpf_ringbuf: the map's
 * type and size checked (libbpf), the consumer page mapped read-write, the
 * producer page and the doubly mapped data area read-only, and unmapping.
 * The walk over the mapped pages is rp_bpf_ringbuf.c's. */
#include "rp_bpf_ringbuf.h"
#include "rp_bpf_ringbuf_int.h"
#include "rp_adapter_int.h"

#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

static int ringbuf_map(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_fn fn,
                       rp_bpf_ringbuf_batch_fn batch_fn, void *ctx, unsigned flags)
{
	if (!rb)
		return -EINVAL;
	memset(rb, 0, sizeof *rb);
	if ((!fn && !batch_fn) || (flags & ~(unsigned)RP_BPF_RINGBUF_FLAGS))
		return -EINVAL;
	uint64_t size;
	size_t page;
	const int rc = rp_bpf_ring_map_check(map_fd, BPF_MAP_TYPE_RINGBUF, RP_E_RB_MAP_TYPE,
	                                     RP_E_RB_MAP_SIZE, &size, &page);
	if (rc)
		return rc;

	void *cons = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (cons == MAP_FAILED)
		return -errno;
	const size_t prod_len = (size_t)page + 2 * (size_t)size;
	void *prod = mmap(NULL, prod_len, PROT_READ, MAP_SHARED, map_fd, (off_t)page);
	if (prod == MAP_FAILED) {
		int err = -errno;
		munmap(cons, (size_t)page);
		return err;
	}
	rp_bpf_ringbuf_bind_pages(rb, map_fd, cons, prod, page, size, fn, batch_fn, ctx, flags);
	return 0;
}

int rp_bpf_ringbuf_map(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_fn fn, void *ctx,
                       unsigned flags)
{
	return ringbuf_map(rb, map_fd, fn, NULL, ctx, flags);
}

int rp_bpf_ringbuf_map_batch(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_batch_fn fn,
                             void *ctx, unsigned flags)
{
	return ringbuf_map(rb, map_fd, NULL, fn, ctx, flags);
}

void rp_bpf_ringbuf_unmap(rp_bpf_ringbuf *rb)
{
	if (!rb)
		return;
	if (rb->prod_map)
		munmap(rb->prod_map, rb->prod_len);
	if (rb->cons_page)
		munmap(rb->cons_page, rb->page_size);
	rb->prod_map = NULL;
	rb->cons_page = NULL;
	rb->data.data = NULL;
}

