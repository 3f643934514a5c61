/* Every perf record type other than SAMPLE (docs/abi.md), and the
 * sample_id trailer that sample_id_all appends to them.
 *
 * rp_record_parse splits the body into payload and trailer (the trailer is
 * read from the END of the body; its size comes from the layout), parses the
 * payload by type into the matching member of rp_event, and fails unless the
 * fields consume the payload exactly (strings run to the end of the payload;
 * TEXT_POKE may end in fewer than 8 bytes of zero padding).  Strings are
 * views of their bytes up to the first NUL inside the field, or the whole
 * field if it has none.  A SAMPLE is passed to rp_sample_parse_body.  A type
 * this parser does not know gives RP_E_UNKNOWN_TYPE: the record is still
 * well framed and can be skipped by its size.
 *
 * Proved (core/rp_records.c): reads and returned views stay inside the
 * record body; the trailer is read from the end of the body and fits; every
 * error is a defined status.  Exact consumption, trailer included: on RP_OK
 * the payload walk's cursor (from offset 0, moved only forward by the field
 * helpers) ends exactly where the trailer begins: the body's last id_size
 * bytes with sample_id_all, none without.  That is walk_payload's
 * postcondition `exact`, asserted (and proved) in rp_record_parse as
 * final offset + trailer size == rp_span_len(body); and the trailer's
 * fields fill its id_size bytes (rp_sample_id_parse, postcondition
 * `filled`).  A SAMPLE is the SAMPLE parser's (rp_sample.h).
 * Tested, not proved: the field values per record type (tests/parsers,
 * parsers-integration, the sample fuzz harness). */
#ifndef RP_RECORDS_H
#define RP_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_abi.h"
#include "rp_span.h"
#include "rp_ring.h"
#include "rp_sample.h"
#include "rp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_sample_id {
	uint64_t present; /* sample_type bits of the trailer that were read */
	uint32_t pid, tid;
	uint64_t time, id, stream_id;
	uint32_t cpu, res;
	uint64_t identifier;
} rp_sample_id;

typedef struct rp_ev_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	rp_span filename;
} rp_ev_mmap;

typedef struct rp_ev_mmap2 {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	bool has_build_id;      /* misc has MMAP_BUILD_ID */
	uint32_t maj, min;      /* without build id */
	uint64_t ino, ino_generation;
	uint8_t build_id_size;  /* with build id: <= 20 */
	rp_span build_id;       /* build_id_size bytes */
	uint32_t prot, flags;
	rp_span filename;
} rp_ev_mmap2;

typedef struct rp_ev_lost { uint64_t id, lost; } rp_ev_lost;
typedef struct rp_ev_comm { uint32_t pid, tid; rp_span comm; } rp_ev_comm;
/* EXIT and FORK */
typedef struct rp_ev_task { uint32_t pid, ppid, tid, ptid; uint64_t time; } rp_ev_task;
/* THROTTLE and UNTHROTTLE */
typedef struct rp_ev_throttle { uint64_t time, id, stream_id; } rp_ev_throttle;
typedef struct rp_ev_read { uint32_t pid, tid; rp_read_values values; } rp_ev_read;
typedef struct rp_ev_aux { uint64_t aux_offset, aux_size, flags; } rp_ev_aux;
typedef struct rp_ev_itrace_start { uint32_t pid, tid; } rp_ev_itrace_start;
typedef struct rp_ev_lost_samples { uint64_t lost; } rp_ev_lost_samples;
typedef struct rp_ev_switch_cpu_wide { uint32_t next_prev_pid, next_prev_tid; } rp_ev_switch_cpu_wide;
typedef struct rp_ev_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	rp_span entries; /* nr x {u64 dev, ino} */
} rp_ev_namespaces;
typedef struct rp_ev_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	rp_span name;
} rp_ev_ksymbol;
typedef struct rp_ev_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	rp_span tag; /* 8 bytes */
} rp_ev_bpf_event;
typedef struct rp_ev_cgroup { uint64_t id; rp_span path; } rp_ev_cgroup;
typedef struct rp_ev_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	rp_span old_bytes, new_bytes;
} rp_ev_text_poke;
typedef struct rp_ev_aux_output_hw_id { uint64_t hw_id; } rp_ev_aux_output_hw_id;
typedef struct rp_ev_callchain_deferred {
	uint64_t cookie, nr;
	rp_span ips; /* nr u64 */
} rp_ev_callchain_deferred;

/* A parsed record: `type` says which member holds it (SWITCH has none:
 * its meaning is in misc).  Not a union, so that each member is plain
 * memory for the proof. */
typedef struct rp_event {
	uint32_t type;
	uint16_t misc;
	bool has_sample_id; /* the trailer was read (never for SAMPLE) */
	rp_sample_id sample_id;
	rp_sample sample;
	rp_ev_mmap mmap;
	rp_ev_mmap2 mmap2;
	rp_ev_lost lost;
	rp_ev_comm comm;
	rp_ev_task task;
	rp_ev_throttle throttle;
	rp_ev_read read;
	rp_ev_aux aux;
	rp_ev_itrace_start itrace_start;
	rp_ev_lost_samples lost_samples;
	rp_ev_switch_cpu_wide switch_cpu_wide;
	rp_ev_namespaces namespaces;
	rp_ev_ksymbol ksymbol;
	rp_ev_bpf_event bpf_event;
	rp_ev_cgroup cgroup;
	rp_ev_text_poke text_poke;
	rp_ev_aux_output_hw_id aux_output_hw_id;
	rp_ev_callchain_deferred callchain_deferred;
} rp_event;

/* The views of a non-SAMPLE record of type t (the member of e that t names)
 * lie inside p.  One predicate, not a clause per type, so that WP proves it
 * once per path of a type switch instead of once per path and type (the
 * provers unfold it). */
/*@ predicate rp_payload_views_inside(integer t, rp_event *e, rp_span p) =
      (t == RP_RECORD_MMAP ==> rp_span_inside(e->mmap.filename, p)) &&
      (t == RP_RECORD_MMAP2 ==> rp_span_inside(e->mmap2.filename, p) &&
                                rp_span_inside(e->mmap2.build_id, p)) &&
      (t == RP_RECORD_COMM ==> rp_span_inside(e->comm.comm, p)) &&
      (t == RP_RECORD_READ ==> rp_read_inside(&e->read.values, p)) &&
      (t == RP_RECORD_NAMESPACES ==> rp_span_inside(e->namespaces.entries, p)) &&
      (t == RP_RECORD_KSYMBOL ==> rp_span_inside(e->ksymbol.name, p)) &&
      (t == RP_RECORD_BPF_EVENT ==> rp_span_inside(e->bpf_event.tag, p)) &&
      (t == RP_RECORD_CGROUP ==> rp_span_inside(e->cgroup.path, p)) &&
      (t == RP_RECORD_TEXT_POKE ==> rp_span_inside(e->text_poke.old_bytes, p) &&
                                    rp_span_inside(e->text_poke.new_bytes, p)) &&
      (t == RP_RECORD_CALLCHAIN_DEFERRED ==> rp_span_inside(e->callchain_deferred.ips, p));
*/

/* Every view of the member e->type names lies inside b (rp_record_parse's
 * postcondition on RP_OK, over the record body). */
/*@ predicate rp_event_inside(rp_event *e, rp_span b) =
      (e->type == RP_RECORD_SAMPLE ==> rp_sample_inside(&e->sample, b)) &&
      rp_payload_views_inside(e->type, e, b);
*/

/* The sample_id trailer: the last L->id_size bytes of body, one 8-byte
 * field (pid and tid, time, id, stream_id, cpu and res, identifier) per
 * trailer bit of L->sample_type, in that order.  RP_OK: the fields fill the
 * id_size bytes exactly (postcondition `filled`).  RP_E_BODY_SHORT: body is
 * shorter than id_size.  RP_E_LEFTOVER: id_size is larger than the fields
 * (a hand-made layout; rp_sample_layout_make computes id_size from the
 * bits).  *out is written only on RP_OK (tested, not in the contract:
 * the struct's equality to its old value kept cvc4 busy for minutes,
 * within its step budget, on a caller's mutant). */
/*@ requires rp_layout_ok(L);
    requires rp_span_ok(body);
    requires \valid(out) && \separated(out, L);
    requires RP_APART_FROM_SPAN(out, body);
    assigns *out;
    ensures \result == RP_OK ==> L->id_size <= rp_span_len(body);
    ensures filled: \result == RP_OK ==> L->id_size == 8 * (
              L->sample_type / RP_SAMPLE_TID % 2 +
              L->sample_type / RP_SAMPLE_TIME % 2 +
              L->sample_type / RP_SAMPLE_ID % 2 +
              L->sample_type / RP_SAMPLE_STREAM_ID % 2 +
              L->sample_type / RP_SAMPLE_CPU % 2 +
              L->sample_type / RP_SAMPLE_IDENTIFIER % 2);
    behavior short:
      assumes rp_span_len(body) < L->id_size;
      assigns \nothing;
      ensures \result == RP_E_BODY_SHORT;
    behavior fits:
      assumes rp_span_len(body) >= L->id_size;
      ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_LEFTOVER;
    complete behaviors;
    disjoint behaviors;
*/
rp_status rp_sample_id_parse(const rp_sample_layout *L, rp_span body, rp_sample_id *out);

/* Parse any record.  RP_OK: the member of *out named by rec->type is
 * filled and its views lie inside rec->body.  Errors: RP_E_UNKNOWN_TYPE,
 * RP_E_BODY_SHORT, RP_E_LEFTOVER, RP_E_BUILD_ID_SIZE, and the SAMPLE
 * parser's codes.  *out is unspecified after an error other than
 * RP_E_UNKNOWN_TYPE (which fills only type and misc). */
/*@ requires rp_layout_ok(L);
    requires \valid_read(rec) && rp_span_ok(rec->body);
    requires \valid(out);
    requires \separated(out, rec, L);
    requires RP_APART_FROM_SPAN(out, rec->body);
    assigns *out;
    behavior unknown:
      assumes rec->type < RP_RECORD_MMAP || rec->type > RP_RECORD_CALLCHAIN_DEFERRED;
      ensures \result == RP_E_UNKNOWN_TYPE;
    behavior known:
      assumes RP_RECORD_MMAP <= rec->type <= RP_RECORD_CALLCHAIN_DEFERRED;
      ensures \result == RP_OK || \result == RP_E_BODY_SHORT ||
              \result == RP_E_LEFTOVER || \result == RP_E_RAW_ALIGN ||
              \result == RP_E_STACK_DYN || \result == RP_E_BUILD_ID_SIZE;
      ensures \result == RP_OK ==> out->type == \old(rec->type);
      ensures \result == RP_OK ==> rp_event_inside(out, \old(rec->body));
    complete behaviors;
    disjoint behaviors;
*/
rp_status rp_record_parse(const rp_sample_layout *L, const rp_record *rec, rp_event *out);

#ifdef __cplusplus
}
#endif

#endif
