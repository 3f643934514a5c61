#include "reorder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rpt_reorder_init(rpt_reorder *r, uint32_t cap)
{
	memset(r, 0, sizeof(*r));
	r->heap = calloc(cap, sizeof(*r->heap));
	r->seq = calloc(cap, sizeof(*r->seq));
	if (!r->heap || !r->seq) {
		rpt_reorder_free(r);
		return -ENOMEM;
	}
	r->cap = cap;
	return 0;
}

void rpt_reorder_free(rpt_reorder *r)
{
	for (uint32_t i = 0; r->heap && i < r->n; i++)
		free(r->heap[i].data);
	free(r->heap);
	free(r->seq);
	memset(r, 0, sizeof(*r));
}

static int before(const rpt_reorder *r, uint32_t a, uint32_t b)
{
	if (r->heap[a].ts != r->heap[b].ts)
		return r->heap[a].ts < r->heap[b].ts;
	return r->seq[a] < r->seq[b];
}

static void swap(rpt_reorder *r, uint32_t a, uint32_t b)
{
	rpt_reorder_item t = r->heap[a];
	uint64_t s = r->seq[a];
	r->heap[a] = r->heap[b];
	r->seq[a] = r->seq[b];
	r->heap[b] = t;
	r->seq[b] = s;
}

static int pop(rpt_reorder *r, rpt_reorder_fn fn, void *arg)
{
	rpt_reorder_item top = r->heap[0];
	r->n--;
	if (r->n) {
		r->heap[0] = r->heap[r->n];
		r->seq[0] = r->seq[r->n];
		for (uint32_t i = 0;;) {
			uint32_t l = 2 * i + 1, m = i;
			if (l < r->n && before(r, l, m))
				m = l;
			if (l + 1 < r->n && before(r, l + 1, m))
				m = l + 1;
			if (m == i)
				break;
			swap(r, i, m);
			i = m;
		}
	}
	if (top.ts > r->last_out)
		r->last_out = top.ts;
	int rc = fn(arg, top.data, top.size);
	free(top.data);
	return rc;
}

int rpt_reorder_push(rpt_reorder *r, uint64_t ts, const void *data, uint32_t size,
                     rpt_reorder_fn fn, void *arg)
{
	if (r->n == r->cap) {
		r->forced++;
		int rc = pop(r, fn, arg);
		if (rc)
			return rc;
	}
	if (ts < r->last_out)
		r->late++;
	void *copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, size);
	uint32_t i = r->n++;
	r->heap[i] = (rpt_reorder_item){ .ts = ts, .size = size, .data = copy };
	r->seq[i] = r->next_seq++;
	while (i && before(r, i, (i - 1) / 2)) {
		swap(r, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return 0;
}

int rpt_reorder_release(rpt_reorder *r, uint64_t upto, rpt_reorder_fn fn, void *arg)
{
	while (r->n && r->heap[0].ts <= upto) {
		int rc = pop(r, fn, arg);
		if (rc)
			return rc;
	}
	return 0;
}
