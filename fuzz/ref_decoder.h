/* A reference perf-ring decoder for differential fuzzing: written from the
 * ACSL contracts of core/rp_ring.h and core/rp_views.h, byte by byte, with
 * its own arithmetic, copying bodies out.  Slow and obvious on purpose. */
#ifndef REF_DECODER_H
#define REF_DECODER_H

#include <stdint.h>

#define REF_MAX_BODY 65528u

typedef struct ref_record {
	uint64_t pos;
	uint32_t type;
	uint32_t misc;
	uint32_t size;
	uint8_t body[REF_MAX_BODY]; /* size - 8 bytes */
} ref_record;

/* Decode the record at tail: returns an rp_status value (RP_OK, RP_EMPTY or
 * an RP_E_* framing error); on RP_OK fills *out and *next_tail. */
int ref_next(const uint8_t *page, uint64_t size, uint64_t head, uint64_t tail,
             ref_record *out, uint64_t *next_tail);

/* Views over a decoded record (same status values as core/rp_views.h). */
int ref_bpf_output(const ref_record *r, uint32_t *raw_size, const uint8_t **payload);
int ref_lost(const ref_record *r, uint64_t *id, uint64_t *lost);

#endif
