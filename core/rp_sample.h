/* PERF_RECORD_SAMPLE, parsed from a layout descriptor (docs/abi.md).
 *
 * Build the descriptor once per event with rp_sample_layout_make from the
 * perf_event_attr fields; it rejects sample_type / read_format bits this
 * parser does not know and WEIGHT together with WEIGHT_STRUCT.  The parser
 * then walks the body in kernel output order with a cursor, returns fixed
 * fields by value and every variable-length part as a view into the body,
 * and fails unless the fields consume the body exactly.
 *
 * Kernel quirks (docs/abi.md), decided here:
 *  - STACK_USER with size 0 has no dyn_size (the kernel's extra u64 lies
 *    outside header.size).
 *  - RAW: raw_size includes the padding; 4 + raw_size must be a multiple of 8.
 *  - BRANCH_STACK with nr == 0 and HW_INDEX is ambiguous: the kernel writes
 *    just nr when it has no branch stack, but nr, hw_idx when it has an
 *    empty one.  The parser first reads the no-branch-stack form (the one
 *    every PMU-less machine produces); if the sample then does not parse
 *    exactly, it reads it again with hw_idx.  Likewise COUNTERS: counters are
 *    read when the flag is set, and omitted only if that does not parse.
 *    has_hw_idx / has_branch_counters say which form matched.
 *  - READ with GROUP: the record's own nr sizes the group.
 */
/*
 * Proved (core/rp_sample.c): every read stays inside the body; every view
 * returned lies inside the body; the layout rejects unknown bits; counts
 * (callchain nr, branch nr, group nr, dump sizes) are checked against the
 * bytes left before any multiplication, so no size computation overflows;
 * every error is a defined status.  Exact consumption: on RP_OK the walk's
 * cursor, which starts at offset 0 and only the field helpers move
 * (forward), ends at the end of the body, so no byte is left over
 * (sample_walk's postcondition `exact`: its returned final offset ==
 * rp_span_len(body); asserted, and proved, at each RP_OK return of
 * rp_sample_parse_body, whose signature does not return the offset).
 * Tested, not proved: the values of the fixed fields, i.e. that each part
 * takes the bytes the kernel layout gives it (tests/parsers unit tests with
 * an independent record builder, parsers-integration on the real kernel,
 * the sample fuzz harness against its own field walk).
 */
#ifndef RP_SAMPLE_H
#define RP_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_abi.h"
#include "rp_span.h"
#include "rp_ring.h"
#include "rp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_sample_layout {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint32_t regs_user_nr; /* popcount(sample_regs_user) */
	uint32_t regs_intr_nr; /* popcount(sample_regs_intr) */
	uint32_t id_size;      /* bytes of the sample_id trailer, 0 without sample_id_all */
	bool sample_id_all;
} rp_sample_layout;

/*@ // 2^25 = RP_SAMPLE_KNOWN_LIMIT (1 << 25): the bit above the highest known
    // sample_type bit, WEIGHT_STRUCT (bit 24); every known bit is below it.
    logic integer RP_SAMPLE_TYPE_LIMIT = 33554432;

    predicate rp_layout_ok(rp_sample_layout *L) =
      \valid_read(L) && L->regs_user_nr <= 64 && L->regs_intr_nr <= 64 &&
      L->id_size <= 48 && L->read_format < 32 && L->sample_type < RP_SAMPLE_TYPE_LIMIT;

    // Set bits among the low k bits of m.
    logic integer rp_popc_n(integer m, integer k) =
      k <= 0 ? 0 : m % 2 + rp_popc_n(m / 2, k - 1);
    logic integer rp_popc(integer m) = rp_popc_n(m, 64);
*/

/* The number of set bits of m (a register mask), by a proven loop. */
/*@ assigns \nothing;
    ensures \result == rp_popc(m);
    ensures \result <= 64;
*/
uint32_t rp_popcount64(uint64_t m);

/* The layout rp_sample_layout_make fills: valid (rp_layout_ok), each
 * field from its argument, the register counts as popcounts, and the
 * sample_id trailer as the kernel sizes it (id_header_size): 8 bytes per
 * trailer bit of sample_type with sample_id_all, none without.  One
 * predicate, proved once per path. */
/*@ predicate rp_layout_made(rp_sample_layout *l, integer sample_type, integer read_format,
                            integer branch_sample_type, integer regs_user, integer regs_intr,
                            bool sample_id_all) =
      rp_layout_ok(l) &&
      l->sample_type == sample_type && l->read_format == read_format &&
      l->branch_sample_type == branch_sample_type &&
      l->regs_user_nr == rp_popc(regs_user) && l->regs_intr_nr == rp_popc(regs_intr) &&
      l->sample_id_all == sample_id_all &&
      (sample_id_all == \false ==> l->id_size == 0) &&
      (sample_id_all == \true ==> l->id_size == 8 * (
         sample_type / RP_SAMPLE_TID % 2 + sample_type / RP_SAMPLE_TIME % 2 +
         sample_type / RP_SAMPLE_ID % 2 + sample_type / RP_SAMPLE_STREAM_ID % 2 +
         sample_type / RP_SAMPLE_CPU % 2 + sample_type / RP_SAMPLE_IDENTIFIER % 2));
*/

/*@ requires \valid(out);
    assigns *out;
    // Every error writes nothing: one behavior for all of them (the bit
    // errors, and WEIGHT with WEIGHT_STRUCT), so that the frame is proved
    // once.
    behavior failed:
      assumes sample_type >= RP_SAMPLE_TYPE_LIMIT || read_format >= 32 ||
              ((sample_type & RP_SAMPLE_WEIGHT) != 0 &&
               (sample_type & RP_SAMPLE_WEIGHT_STRUCT) != 0);
      assigns \nothing;
    behavior type_bits:
      assumes sample_type >= RP_SAMPLE_TYPE_LIMIT;
      ensures \result == RP_E_SAMPLE_TYPE_BITS;
    behavior format_bits:
      assumes sample_type < RP_SAMPLE_TYPE_LIMIT && read_format >= 32;
      ensures \result == RP_E_READ_FORMAT_BITS;
    behavior valid:
      assumes sample_type < RP_SAMPLE_TYPE_LIMIT && read_format < 32;
      ensures \result == RP_OK || \result == RP_E_WEIGHT_BOTH;
      ensures \result == RP_OK ==> rp_layout_made(out, sample_type, read_format,
                                     branch_sample_type, regs_user, regs_intr, sample_id_all);
    complete behaviors type_bits, format_bits, valid;
    disjoint behaviors type_bits, format_bits, valid;
*/
rp_status rp_sample_layout_make(uint64_t sample_type, uint64_t read_format,
                                uint64_t branch_sample_type, uint64_t regs_user,
                                uint64_t regs_intr, bool sample_id_all,
                                rp_sample_layout *out);

/* read_format values (SAMPLE with READ, and PERF_RECORD_READ). */
typedef struct rp_read_values {
	bool group;
	bool has_id, has_lost, has_enabled, has_running;
	uint64_t nr;           /* group: entries in `entries`; else 1 */
	uint64_t time_enabled; /* if has_enabled */
	uint64_t time_running; /* if has_running */
	uint64_t value;        /* not group */
	uint64_t id;           /* not group, if has_id */
	uint64_t lost;         /* not group, if has_lost */
	uint32_t entry_size;   /* group: bytes per entry {value, [id], [lost]} */
	rp_span entries;       /* group: nr * entry_size bytes */
} rp_read_values;

typedef struct rp_sample {
	uint64_t present; /* sample_type bits whose fields were read */
	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	rp_read_values read;
	uint64_t callchain_nr;
	rp_span callchain; /* callchain_nr u64 ips (context markers included) */
	uint32_t raw_size;
	rp_span raw; /* raw_size bytes, kernel padding included */
	uint64_t branch_nr;
	bool has_hw_idx, has_branch_counters;
	uint64_t branch_hw_idx;
	rp_span branch_entries;  /* branch_nr x {from, to, flags} (24 bytes) */
	rp_span branch_counters; /* branch_nr u64, if has_branch_counters */
	uint64_t regs_user_abi;  /* 0: no registers follow */
	rp_span regs_user;       /* regs_user_nr u64 when abi != 0 */
	uint64_t stack_user_size;
	rp_span stack_user;      /* stack_user_size bytes */
	bool has_dyn_size;       /* false when stack_user_size == 0 */
	uint64_t stack_user_dyn_size;
	uint64_t weight; /* WEIGHT or WEIGHT_STRUCT (the union as one u64) */
	uint64_t data_src, transaction;
	uint64_t regs_intr_abi;
	rp_span regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	rp_span aux; /* aux_size bytes */
} rp_sample;

/*@ predicate rp_read_inside(rp_read_values *r, rp_span b) =
      rp_span_inside(r->entries, b);

    // The views of a SAMPLE lie inside b: those before the registers
    // (front) and the rest (back), named apart for the walk's two halves.
    predicate rp_front_inside(rp_sample *o, rp_span b) =
      rp_read_inside(&o->read, b) &&
      rp_span_inside(o->callchain, b) && rp_span_inside(o->raw, b) &&
      rp_span_inside(o->branch_entries, b) && rp_span_inside(o->branch_counters, b);
    predicate rp_back_inside(rp_sample *o, rp_span b) =
      rp_span_inside(o->regs_user, b) && rp_span_inside(o->stack_user, b) &&
      rp_span_inside(o->regs_intr, b) && rp_span_inside(o->aux, b);
    predicate rp_sample_inside(rp_sample *o, rp_span b) =
      rp_front_inside(o, b) && rp_back_inside(o, b);
*/

/* Group entry i of a READ value set: value, and id / lost if present (0
 * where absent); false, with all three 0, for i >= nr or a set that is not
 * a group.  Proved: it reads only inside r->entries and writes only the
 * three outputs.  Tested, not proved: the values and the refusals
 * (tests/parsers, and fuzz/harness_sample.c against the body's bytes). */
/*@ requires \valid_read(r) && rp_span_ok(r->entries);
    requires \valid(value) && \valid(id) && \valid(lost);
    requires \separated(value, id, lost);
    requires RP_APART_FROM_SPAN(value, r->entries);
    requires RP_APART_FROM_SPAN(id, r->entries);
    requires RP_APART_FROM_SPAN(lost, r->entries);
    assigns *value, *id, *lost;
*/
bool rp_read_entry(const rp_read_values *r, uint32_t i, uint64_t *value,
                   uint64_t *id, uint64_t *lost);

/* A callchain ip that is a context marker (PERF_CONTEXT_*), not an address. */
/*@ assigns \nothing;
    ensures \result == \true <==> ip > 18446744073709547520;
*/
bool rp_callchain_is_context(uint64_t ip);

/* Parse a SAMPLE body.  On RP_OK every field of L->sample_type is in *out
 * and the fields consumed the body exactly; every view lies inside it.
 * Errors: RP_E_TYPE (not a SAMPLE), RP_E_BODY_SHORT (a field or count
 * reaches past the end), RP_E_LEFTOVER (bytes remain), RP_E_RAW_ALIGN,
 * RP_E_STACK_DYN.  *out is unspecified after an error. */
/*@ requires rp_layout_ok(L);
    requires \valid_read(rec) && rp_span_ok(rec->body);
    requires \valid(out);
    requires \separated(out, rec, L);
    requires RP_APART_FROM_SPAN(out, rec->body);
    assigns *out;
    behavior wrong_type:
      assumes rec->type != RP_RECORD_SAMPLE;
      assigns \nothing;
      ensures \result == RP_E_TYPE;
    behavior sample:
      assumes rec->type == RP_RECORD_SAMPLE;
      ensures \result == RP_OK || \result == RP_E_BODY_SHORT ||
              \result == RP_E_LEFTOVER || \result == RP_E_RAW_ALIGN ||
              \result == RP_E_STACK_DYN;
      ensures \result == RP_OK ==> rp_sample_inside(out, rec->body);
    complete behaviors;
    disjoint behaviors;
*/
rp_status rp_sample_parse(const rp_sample_layout *L, const rp_record *rec,
                          rp_sample *out);

/* The same, over a bare body span (for callers without an rp_record). */
/*@ requires rp_layout_ok(L);
    requires rp_span_ok(body);
    requires \valid(out);
    requires \separated(out, L);
    requires RP_APART_FROM_SPAN(out, body);
    assigns *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT ||
            \result == RP_E_LEFTOVER || \result == RP_E_RAW_ALIGN ||
            \result == RP_E_STACK_DYN;
    ensures \result == RP_OK ==> rp_sample_inside(out, body);
*/
rp_status rp_sample_parse_body(const rp_sample_layout *L, rp_span body,
                               rp_sample *out);

#ifdef __cplusplus
}
#endif

#endif
