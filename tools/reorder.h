/* A bounded reorder buffer: events from several per-CPU streams, released
 * in timestamp order.  An event is held until every stream has been read
 * past its timestamp (the caller says so with rpt_reorder_release) or the
 * buffer is full (then the oldest goes out early). */
#ifndef RPT_REORDER_H
#define RPT_REORDER_H

#include <stddef.h>
#include <stdint.h>

typedef struct rpt_reorder_item {
	uint64_t ts;
	uint32_t size;
	void *data;
} rpt_reorder_item;

typedef struct rpt_reorder {
	rpt_reorder_item *heap; /* min-heap by ts, then arrival */
	uint64_t *seq;
	uint32_t n, cap;
	uint64_t next_seq;
	uint64_t last_out;  /* ts of the last released event */
	uint64_t forced;    /* released early because the buffer was full */
	uint64_t late;      /* arrived after a later event had been released */
} rpt_reorder;

typedef int (*rpt_reorder_fn)(void *arg, const void *data, uint32_t size);

int rpt_reorder_init(rpt_reorder *r, uint32_t cap);
void rpt_reorder_free(rpt_reorder *r);
/* Add a copy of data; may release the oldest through fn when full.
 * 0, -ENOMEM, or fn's non-zero result. */
int rpt_reorder_push(rpt_reorder *r, uint64_t ts, const void *data, uint32_t size,
                     rpt_reorder_fn fn, void *arg);
/* Release every event with ts <= upto, oldest first.  0 or fn's result. */
int rpt_reorder_release(rpt_reorder *r, uint64_t upto, rpt_reorder_fn fn, void *arg);

#endif
