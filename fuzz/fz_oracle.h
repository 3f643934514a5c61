/* The bounds/termination oracle of one rp_ring_drain call, shared by the
 * ring harnesses.  It uses only the inputs and outputs of the call, plus,
 * when hdr is given, the header bytes the decoder must have seen. */
#ifndef FZ_ORACLE_H
#define FZ_ORACLE_H

#include <stdint.h>

#include "rp_ring.h"

/* Fill out[8] with the header bytes expected at ring offset off. */
typedef void (*fz_hdr_fn)(void *ctx, uint64_t off, uint8_t out[8]);

/* Bytes from t to h on the u64 circle (unsigned wrap is the definition). */
static inline uint64_t fz_dist(uint64_t h, uint64_t t) { return h - t; }

/* Check one drain call; aborts with a message on any violation.
 * Returns the sum of the sizes of the records returned. */
uint64_t fz_check_drain(const rp_ring *ring, uint64_t head, uint64_t tail_before,
                        uint64_t tail_after, const rp_record *recs, uint32_t max,
                        uint32_t count, rp_status st, fz_hdr_fn hdr, void *ctx);

/* Check that one record's body span lies in the page, right after its
 * header, wraps at most once and holds exactly size - 8 bytes. */
void fz_check_body(const rp_ring *ring, const rp_record *r);

#endif
