/* Typed views over one record.  Each view validates every length it reads
 * against the record's own body and returns sub-spans of it, never copies.
 *
 * Proved (core/rp_views.c): the BPF-output view returns RP_OK exactly when
 * the record is a SAMPLE whose u32 raw size fits in the body after it, and
 * then the payload span is those raw_size bytes; the LOST view reads the two
 * u64 at body offsets 0 and 8.  Every error leaves *out unwritten.
 *
 * The BPF-output view is defined here (RP_INLINE, rp_prim.h), so that a
 * consumer's per-record callback makes no call for it: when the size word
 * and the payload lie in the body's first slice (every record that does not
 * wrap the ring's end) it is one 4-byte load and one compare; otherwise it
 * calls the span readers.  Each byte is read once on either path.
 * Tested, not proved: that the kernel's BPF output records look like this
 * (tests/integration round trips at 0..4000-byte payloads). */
#ifndef RP_VIEWS_H
#define RP_VIEWS_H

#include <stdint.h>

#include "rp_abi.h"
#include "rp_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A PERF_RECORD_SAMPLE of a BPF-output event (sample_type == PERF_SAMPLE_RAW
 * only): u32 raw size at body offset 0, then the payload.  raw_size includes
 * the kernel's padding, whose bytes are stale ring contents (docs/abi.md). */
typedef struct rp_bpf_output {
	uint32_t raw_size;
	rp_span data; /* raw_size bytes */
} rp_bpf_output;

/* PERF_RECORD_LOST: the buffer dropped `lost` records; id names an event
 * that wrote later, not necessarily the one that lost (docs/abi.md). */
typedef struct rp_lost {
	uint64_t id;
	uint64_t lost;
} rp_lost;

/*@ requires \valid_read(rec) && \valid(out);
    requires rp_span_ok(rec->body);
    requires \separated(out, rec);
    requires RP_APART_FROM_SPAN(out, rec->body);
    assigns *out;
    // Every error writes nothing: one behavior for all of them (the
    // complement of ok), so that the frame is proved once.
    behavior failed:
      assumes !(rec->type == RP_RECORD_SAMPLE && rp_span_len(rec->body) >= 4 &&
                rp_span_u32(rec->body, 0) + 4 <= rp_span_len(rec->body));
      assigns \nothing;
    behavior wrong_type:
      assumes rec->type != RP_RECORD_SAMPLE;
      ensures \result == RP_E_TYPE;
    behavior no_size_word:
      assumes rec->type == RP_RECORD_SAMPLE;
      assumes rp_span_len(rec->body) < 4;
      ensures \result == RP_E_BODY_SHORT;
    behavior raw_too_long:
      assumes rec->type == RP_RECORD_SAMPLE;
      assumes rp_span_len(rec->body) >= 4;
      assumes rp_span_u32(rec->body, 0) + 4 > rp_span_len(rec->body);
      ensures \result == RP_E_BODY_SHORT;
    behavior ok:
      assumes rec->type == RP_RECORD_SAMPLE;
      assumes rp_span_len(rec->body) >= 4;
      assumes rp_span_u32(rec->body, 0) + 4 <= rp_span_len(rec->body);
      ensures \result == RP_OK;
      ensures out->raw_size == rp_span_u32(rec->body, 0);
      ensures rp_span_ok(out->data);
      ensures rp_span_len(out->data) == out->raw_size;
      ensures \forall integer i; 0 <= i < out->raw_size ==>
                rp_span_at(out->data, i) == rp_span_at(rec->body, 4 + i);
    complete behaviors wrong_type, no_size_word, raw_too_long, ok;
    disjoint behaviors wrong_type, no_size_word, raw_too_long, ok;
*/
RP_INLINE rp_status rp_bpf_output_view(const rp_record *rec, rp_bpf_output *out);

/*@ requires \valid_read(rec) && \valid(out);
    requires rp_span_ok(rec->body);
    requires \separated(out, rec);
    requires RP_APART_FROM_SPAN(out, rec->body);
    assigns *out;
    // Every error writes nothing: one behavior for all of them (the
    // complement of ok), so that the frame is proved once.
    behavior failed:
      assumes !(rec->type == RP_RECORD_LOST && rp_span_len(rec->body) >= 16);
      assigns \nothing;
    behavior wrong_type:
      assumes rec->type != RP_RECORD_LOST;
      ensures \result == RP_E_TYPE;
    behavior short:
      assumes rec->type == RP_RECORD_LOST;
      assumes rp_span_len(rec->body) < 16;
      ensures \result == RP_E_BODY_SHORT;
    behavior ok:
      assumes rec->type == RP_RECORD_LOST;
      assumes rp_span_len(rec->body) >= 16;
      ensures \result == RP_OK;
      ensures out->id == rp_span_u64(rec->body, 0);
      ensures out->lost == rp_span_u64(rec->body, 8);
    complete behaviors wrong_type, short, ok;
    disjoint behaviors wrong_type, short, ok;
*/
rp_status rp_lost_view(const rp_record *rec, rp_lost *out);

/* ---- definitions (see RP_INLINE in rp_prim.h) ----------------------------- */
#if !defined(__FRAMAC__) || defined(RP_DEFINE_VIEWS)
RP_INLINE rp_status rp_bpf_output_view(const rp_record *rec, rp_bpf_output *out)
{
	uint32_t raw;
	rp_span data;

	if (rec->type != RP_RECORD_SAMPLE)
		return RP_E_TYPE;
	if (rec->body.n0 >= 4u) {
		raw = rp_load_u32(rec->body.p0);
		if (raw <= rec->body.n0 - 4u) {
			/* the payload is in the first slice too (the common case) */
			out->raw_size = raw;
			out->data.p0 = rec->body.p0 + 4;
			out->data.n0 = raw;
			out->data.p1 = rec->body.p1;
			out->data.n1 = 0;
			return RP_OK;
		}
		/* raw is read: the payload runs into the second slice, or is
		 * too long (not read again: single fetch) */
	} else if (!rp_span_get_u32(rec->body, 0, &raw)) {
		return RP_E_BODY_SHORT;
	}
	/* raw + 4 > len, without overflowing u32 */
	if (!rp_span_sub(rec->body, 4, raw, &data))
		return RP_E_BODY_SHORT;
	out->raw_size = raw;
	out->data = data;
	return RP_OK;
}
#endif

#ifdef __cplusplus
}
#endif

#endif
