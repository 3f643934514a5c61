#include "rp_sample.h"
#include "rp_cursor.h"

uint32_t rp_popcount64(uint64_t m)
{
	uint64_t x = m;
	uint32_t n = 0;

	/*@ loop invariant 0 <= i <= 64;
	    loop invariant n <= i;
	    loop invariant n + rp_popc_n(x, 64 - i) == rp_popc_n(m, 64);
	    loop assigns i, n, x;
	    loop variant 64 - i;
	*/
	for (uint32_t i = 0; i < 64u; i++) {
		n += (uint32_t)(x % 2u);
		x /= 2u;
	}
	return n;
}

/*@ assigns \nothing;
    ensures \result == 8 * (st / RP_SAMPLE_TID % 2 + st / RP_SAMPLE_TIME % 2 + st / RP_SAMPLE_ID % 2 +
                           st / RP_SAMPLE_STREAM_ID % 2 + st / RP_SAMPLE_CPU % 2 +
                           st / RP_SAMPLE_IDENTIFIER % 2);
    ensures \result <= 48;
*/
static uint32_t id_trailer_size(uint64_t st)
{
	/* 8 bytes per trailer field whose bit is set, a bit read as
	 * (st / bit) % 2: one path where a test per field made 64 paths (and
	 * as many goals per property) for WP. */
	const uint64_t fields = st / RP_SAMPLE_TID % 2u + st / RP_SAMPLE_TIME % 2u +
	                        st / RP_SAMPLE_ID % 2u + st / RP_SAMPLE_STREAM_ID % 2u +
	                        st / RP_SAMPLE_CPU % 2u + st / RP_SAMPLE_IDENTIFIER % 2u;
	return (uint32_t)(8u * fields);
}

rp_status rp_sample_layout_make(uint64_t sample_type, uint64_t read_format,
                                uint64_t branch_sample_type, uint64_t regs_user,
                                uint64_t regs_intr, bool sample_id_all,
                                rp_sample_layout *out)
{
	if (sample_type >= RP_SAMPLE_KNOWN_LIMIT)
		return RP_E_SAMPLE_TYPE_BITS;
	if (read_format >= RP_FORMAT_KNOWN_LIMIT)
		return RP_E_READ_FORMAT_BITS;
	if ((sample_type & RP_SAMPLE_WEIGHT) && (sample_type & RP_SAMPLE_WEIGHT_STRUCT))
		return RP_E_WEIGHT_BOTH;
	out->sample_type = sample_type;
	out->read_format = read_format;
	out->branch_sample_type = branch_sample_type;
	out->regs_user_nr = rp_popcount64(regs_user);
	out->regs_intr_nr = rp_popcount64(regs_intr);
	out->sample_id_all = sample_id_all;
	out->id_size = sample_id_all ? id_trailer_size(sample_type) : 0u;
	return RP_OK;
}

bool rp_callchain_is_context(uint64_t ip)
{
	return ip > UINT64_MAX - 4095u;
}

rp_status rp_take_read_values(rp_span b, uint32_t *off, uint64_t read_format,
                              rp_read_values *out)
{
	uint64_t first;

	out->group = (read_format & RP_FORMAT_GROUP) != 0;
	out->has_enabled = (read_format & RP_FORMAT_TOTAL_TIME_ENABLED) != 0;
	out->has_running = (read_format & RP_FORMAT_TOTAL_TIME_RUNNING) != 0;
	out->has_id = (read_format & RP_FORMAT_ID) != 0;
	out->has_lost = (read_format & RP_FORMAT_LOST) != 0;
	out->nr = 1u;
	out->value = 0u;
	out->id = 0u;
	out->lost = 0u;
	out->entry_size = 8u * (1u + (uint32_t)out->has_id + (uint32_t)out->has_lost);
	out->entries = rp_span_empty_of(b);

	/* value (or nr with GROUP), [enabled], [running] */
	if (!rp_take_u64(b, off, &first) ||
	    !rp_take_opt_u64(b, off, out->has_enabled, &out->time_enabled) ||
	    !rp_take_opt_u64(b, off, out->has_running, &out->time_running))
		return RP_E_BODY_SHORT;
	if (!out->group) {
		out->value = first;
		if (!rp_take_opt_u64(b, off, out->has_id, &out->id) ||
		    !rp_take_opt_u64(b, off, out->has_lost, &out->lost))
			return RP_E_BODY_SHORT;
		return RP_OK;
	}
	/* GROUP: nr entries {value, [id], [lost]}, nr from the record itself */
	out->nr = first;
	if (!rp_take_array(b, off, first, out->entry_size, &out->entries))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

bool rp_read_entry(const rp_read_values *r, uint32_t i, uint64_t *value,
                   uint64_t *id, uint64_t *lost)
{
	*value = 0u;
	*id = 0u;
	*lost = 0u;
	if (!r->group || r->entry_size < 8u || r->entry_size > 24u || i >= r->nr)
		return false;
	const uint64_t at = (uint64_t)i * r->entry_size;
	if (at > UINT32_MAX - 24u)
		return false;
	uint32_t next = (uint32_t)at + 8u;
	if (!rp_span_get_u64(r->entries, (uint32_t)at, value))
		return false;
	if (r->has_id) {
		if (!rp_span_get_u64(r->entries, next, id))
			return false;
		next += 8u;
	}
	if (r->has_lost && !rp_span_get_u64(r->entries, next, lost))
		return false;
	return true;
}

/* Each step below reads one SAMPLE part when `present`, and otherwise
 * writes empty views and leaves *off: sample_walk is then a straight line of
 * calls (no branch merges, which keeps the proof small). */

/* READ: read_format values. */
/*@ requires rp_cur_ok(b, off);
    requires read_format < 32;
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *off, *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_read_inside(out, b);
*/
static rp_status step_read(rp_span b, uint32_t *off, bool present, uint64_t read_format,
                           rp_read_values *out)
{
	out->entries = rp_span_empty_of(b);
	if (!present) {
		/* absent: every value reads as zero (the walk's scratch is
		 * uninitialised, and these fields are copied out) */
		out->group = false;
		out->has_id = false;
		out->has_lost = false;
		out->has_enabled = false;
		out->has_running = false;
		out->nr = 0u;
		out->time_enabled = 0u;
		out->time_running = 0u;
		out->value = 0u;
		out->id = 0u;
		out->lost = 0u;
		out->entry_size = 0u;
		return RP_OK;
	}
	return rp_take_read_values(b, off, read_format, out);
}

/* RAW: u32 size; u8 data[size].  size includes the padding that keeps the
 * record 8-aligned, so 4 + size is a multiple of 8. */
/*@ requires rp_cur_ok(b, off);
    requires \valid(size) && \valid(view) && \separated(size, view, off);
    requires RP_APART_FROM_SPAN(view, b);
    requires RP_APART_FROM_SPAN(size, b);
    assigns *off, *size, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_RAW_ALIGN;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b);
*/
static rp_status step_raw(rp_span b, uint32_t *off, bool present, uint32_t *size, rp_span *view)
{
	*size = 0u;
	*view = rp_span_empty_of(b);
	if (!present)
		return RP_OK;
	if (!rp_take_u32(b, off, size))
		return RP_E_BODY_SHORT;
	if ((*size + 4ull) % 8u != 0)
		return RP_E_RAW_ALIGN;
	if (!rp_take_span(b, off, *size, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* u64 n; then n elements of esz bytes (CALLCHAIN: esz 8; AUX: esz 1). */
/*@ requires rp_cur_ok(b, off);
    requires 1 <= esz <= 8;
    requires \valid(n) && \valid(view) && \separated(n, view, off);
    requires RP_APART_FROM_SPAN(view, b);
    requires RP_APART_FROM_SPAN(n, b);
    assigns *off, *n, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b);
*/
static rp_status step_counted(rp_span b, uint32_t *off, bool present, uint32_t esz,
                              uint64_t *n, rp_span *view)
{
	*n = 0u;
	*view = rp_span_empty_of(b);
	if (!present)
		return RP_OK;
	if (!rp_take_u64(b, off, n))
		return RP_E_BODY_SHORT;
	if (!rp_take_array(b, off, *n, esz, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* REGS_USER / REGS_INTR: u64 abi; u64 regs[nregs] only when abi != 0. */
/*@ requires rp_cur_ok(b, off);
    requires \valid(abi) && \valid(view) && \separated(abi, view, off);
    requires RP_APART_FROM_SPAN(view, b);
    requires RP_APART_FROM_SPAN(abi, b);
    assigns *off, *abi, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b);
*/
static rp_status step_regs(rp_span b, uint32_t *off, bool present, uint32_t nregs,
                           uint64_t *abi, rp_span *view)
{
	*abi = 0u;
	*view = rp_span_empty_of(b);
	if (!present)
		return RP_OK;
	if (!rp_take_u64(b, off, abi))
		return RP_E_BODY_SHORT;
	if (*abi == 0u)
		return RP_OK;
	if (!rp_take_array(b, off, nregs, 8u, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* STACK_USER: u64 size; u8 data[size]; u64 dyn_size only when size != 0
 * (docs/abi.md). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *off, out->stack_user_size, out->stack_user, out->has_dyn_size,
            out->stack_user_dyn_size;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_STACK_DYN;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_span_inside(out->stack_user, b);
*/
static rp_status step_stack(rp_span b, uint32_t *off, bool present, rp_sample *out)
{
	out->has_dyn_size = false;
	out->stack_user_dyn_size = 0u;
	const rp_status r = step_counted(b, off, present, 1u, &out->stack_user_size, &out->stack_user);
	if (r != RP_OK)
		return r;
	if (out->stack_user_size == 0u)
		return RP_OK;
	if (!rp_take_u64(b, off, &out->stack_user_dyn_size))
		return RP_E_BODY_SHORT;
	out->has_dyn_size = true;
	if (out->stack_user_dyn_size > out->stack_user_size)
		return RP_E_STACK_DYN;
	return RP_OK;
}

/* Variant bits for the ambiguous branch stack forms (see rp_sample.h). */
#define BR_HWIDX_WHEN_EMPTY 1u
#define BR_NO_COUNTERS 2u

/* BRANCH_STACK: u64 nr; [u64 hw_idx]; {from, to, flags}[nr]; [u64 cntr[nr]] */
/*@ predicate rp_branch_inside(rp_sample *o, rp_span b) =
      rp_span_inside(o->branch_entries, b) && rp_span_inside(o->branch_counters, b);
*/
/*@ requires rp_cur_ok(b, off);
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *off, out->branch_nr, out->has_hw_idx, out->branch_hw_idx,
            out->branch_entries, out->has_branch_counters, out->branch_counters;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_branch_inside(out, b);
*/
static rp_status step_branch(rp_span b, uint32_t *off, bool present, uint64_t bst,
                             uint32_t variant, rp_sample *out)
{
	out->branch_nr = 0u;
	out->has_hw_idx = false;
	out->branch_hw_idx = 0u;
	out->has_branch_counters = false;
	out->branch_entries = rp_span_empty_of(b);
	out->branch_counters = rp_span_empty_of(b);
	if (!present)
		return RP_OK;
	if (!rp_take_u64(b, off, &out->branch_nr))
		return RP_E_BODY_SHORT;
	out->has_hw_idx = (bst & RP_BRANCH_HW_INDEX) &&
	                  (out->branch_nr != 0u || (variant & BR_HWIDX_WHEN_EMPTY));
	if (!rp_take_opt_u64(b, off, out->has_hw_idx, &out->branch_hw_idx) ||
	    !rp_take_array(b, off, out->branch_nr, 24u, &out->branch_entries))
		return RP_E_BODY_SHORT;
	if (!(bst & RP_BRANCH_COUNTERS) || (variant & BR_NO_COUNTERS))
		return RP_OK;
	if (!rp_take_array(b, off, out->branch_nr, 8u, &out->branch_counters))
		return RP_E_BODY_SHORT;
	out->has_branch_counters = true;
	return RP_OK;
}

/* sample_walk in three parts, each with a short path, so that the facts
 * about early views need not be carried through every later write.  Each
 * part states its frame as the whole struct it fills (sample_walk passes
 * scratch structs and needs no finer one: every field named was one goal
 * more at each call) and its views as one predicate (rp_front_inside,
 * rp_back_inside in rp_sample.h: proved once per path, not once per path
 * and view). */

/* IDENTIFIER .. PERIOD: the fixed-size fields before READ. */
/*@ requires rp_cur_ok(b, off);
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *off, *out;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, b);
*/
static bool walk_fixed_ids(rp_span b, uint32_t *off, uint64_t st, rp_sample *out)
{
	return rp_take_opt_u64(b, off, st & RP_SAMPLE_IDENTIFIER, &out->identifier) &&
	       rp_take_opt_u64(b, off, st & RP_SAMPLE_IP, &out->ip) &&
	       rp_take_opt_u32x2(b, off, st & RP_SAMPLE_TID, &out->pid, &out->tid) &&
	       rp_take_opt_u64(b, off, st & RP_SAMPLE_TIME, &out->time) &&
	       rp_take_opt_u64(b, off, st & RP_SAMPLE_ADDR, &out->addr) &&
	       rp_take_opt_u64(b, off, st & RP_SAMPLE_ID, &out->id) &&
	       rp_take_opt_u64(b, off, st & RP_SAMPLE_STREAM_ID, &out->stream_id) &&
	       rp_take_opt_u32x2(b, off, st & RP_SAMPLE_CPU, &out->cpu, &out->cpu_res) &&
	       rp_take_opt_u64(b, off, st & RP_SAMPLE_PERIOD, &out->period);
}

/* READ .. BRANCH_STACK.  Takes the layout's values, not L: its contract
 * then needs nothing about memory the earlier steps wrote. */
/*@ requires rp_cur_ok(b, off);
    requires read_format < 32;
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *off, *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_RAW_ALIGN;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_front_inside(out, b);
*/
static rp_status walk_read_to_branch(rp_span b, uint32_t *off, uint64_t st, uint64_t read_format,
                                     uint64_t bst, uint32_t variant, rp_sample *out)
{
	rp_status r;

	r = step_read(b, off, st & RP_SAMPLE_READ, read_format, &out->read);
	if (r != RP_OK)
		return r;
	r = step_counted(b, off, st & RP_SAMPLE_CALLCHAIN, 8u, &out->callchain_nr, &out->callchain);
	if (r != RP_OK)
		return r;
	r = step_raw(b, off, st & RP_SAMPLE_RAW, &out->raw_size, &out->raw);
	if (r != RP_OK)
		return r;
	return step_branch(b, off, st & RP_SAMPLE_BRANCH_STACK, bst, variant, out);
}

/* REGS_USER .. AUX, into the fields of *t it names (sample_walk passes a
 * scratch rp_sample, so that WP need not carry the earlier views across
 * these writes). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(t) && \separated(t, off);
    requires RP_APART_FROM_SPAN(t, b);
    assigns *off, *t;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_STACK_DYN;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_back_inside(t, b);
*/
static rp_status walk_regs_to_aux(rp_span b, uint32_t *off, uint64_t st, uint32_t regs_user_nr,
                                  uint32_t regs_intr_nr, rp_sample *t)
{
	rp_status r;

	r = step_regs(b, off, st & RP_SAMPLE_REGS_USER, regs_user_nr, &t->regs_user_abi,
	              &t->regs_user);
	if (r != RP_OK)
		return r;
	r = step_stack(b, off, st & RP_SAMPLE_STACK_USER, t);
	if (r != RP_OK)
		return r;
	if (!rp_take_opt_u64(b, off, st & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT),
	                     &t->weight) ||
	    !rp_take_opt_u64(b, off, st & RP_SAMPLE_DATA_SRC, &t->data_src) ||
	    !rp_take_opt_u64(b, off, st & RP_SAMPLE_TRANSACTION, &t->transaction))
		return RP_E_BODY_SHORT;
	r = step_regs(b, off, st & RP_SAMPLE_REGS_INTR, regs_intr_nr, &t->regs_intr_abi,
	              &t->regs_intr);
	if (r != RP_OK)
		return r;
	if (!rp_take_opt_u64(b, off, st & RP_SAMPLE_PHYS_ADDR, &t->phys_addr) ||
	    !rp_take_opt_u64(b, off, st & RP_SAMPLE_CGROUP, &t->cgroup) ||
	    !rp_take_opt_u64(b, off, st & RP_SAMPLE_DATA_PAGE_SIZE, &t->data_page_size) ||
	    !rp_take_opt_u64(b, off, st & RP_SAMPLE_CODE_PAGE_SIZE, &t->code_page_size))
		return RP_E_BODY_SHORT;
	return step_counted(b, off, st & RP_SAMPLE_AUX, 1u, &t->aux_size, &t->aux);
}

/* Copy a span field by field: WP sees at once that a scalar store leaves
 * other fields alone, whereas a struct store is a havoc the provers must
 * reason past (gather_walk's postconditions would cross eight of them). */
#define SPAN_STORE(dst, src)                                                  \
	do {                                                                  \
		(dst).p0 = (src).p0;                                          \
		(dst).p1 = (src).p1;                                          \
		(dst).n0 = (src).n0;                                          \
		(dst).n1 = (src).n1;                                          \
	} while (0)

/* sample_walk's last step: gather the two halves into *out.  A function of
 * its own, taking the halves by value, so that the facts about the views
 * are proved over these stores alone, not over the whole walk. */
/*@ requires \valid(out);
    requires rp_span_inside(f.read.entries, b);
    requires rp_span_inside(f.callchain, b) && rp_span_inside(f.raw, b);
    requires rp_span_inside(f.branch_entries, b) && rp_span_inside(f.branch_counters, b);
    requires rp_span_inside(k.regs_user, b) && rp_span_inside(k.stack_user, b);
    requires rp_span_inside(k.regs_intr, b) && rp_span_inside(k.aux, b);
    assigns *out;
    ensures rp_read_inside(&out->read, b);
    ensures rp_span_inside(out->callchain, b) && rp_span_inside(out->raw, b);
    ensures rp_span_inside(out->branch_entries, b) && rp_span_inside(out->branch_counters, b);
    ensures rp_span_inside(out->regs_user, b) && rp_span_inside(out->stack_user, b);
    ensures rp_span_inside(out->regs_intr, b) && rp_span_inside(out->aux, b);
*/
static void gather_walk(rp_sample *out, rp_span b, rp_sample f, rp_sample k)
{
	(void)b; /* named by the contract only */
	out->callchain_nr = f.callchain_nr;
	SPAN_STORE(out->callchain, f.callchain);
	out->raw_size = f.raw_size;
	SPAN_STORE(out->raw, f.raw);
	out->branch_nr = f.branch_nr;
	out->has_hw_idx = f.has_hw_idx;
	out->branch_hw_idx = f.branch_hw_idx;
	SPAN_STORE(out->branch_entries, f.branch_entries);
	out->has_branch_counters = f.has_branch_counters;
	SPAN_STORE(out->branch_counters, f.branch_counters);
	out->regs_user_abi = k.regs_user_abi;
	SPAN_STORE(out->regs_user, k.regs_user);
	out->stack_user_size = k.stack_user_size;
	SPAN_STORE(out->stack_user, k.stack_user);
	out->has_dyn_size = k.has_dyn_size;
	out->stack_user_dyn_size = k.stack_user_dyn_size;
	out->weight = k.weight;
	out->data_src = k.data_src;
	out->transaction = k.transaction;
	out->regs_intr_abi = k.regs_intr_abi;
	SPAN_STORE(out->regs_intr, k.regs_intr);
	out->phys_addr = k.phys_addr;
	out->cgroup = k.cgroup;
	out->data_page_size = k.data_page_size;
	out->code_page_size = k.code_page_size;
	out->aux_size = k.aux_size;
	SPAN_STORE(out->aux, k.aux);
	out->read = f.read; /* the one struct store, last */
}

/* A walk's status and, on RP_OK, where its cursor stopped.  Returned by
 * value, so that no store into *out can touch the offset: an out-parameter
 * beside *out did not prove (proofs/README.md). */
typedef struct walk_result {
	rp_status st;
	uint32_t end;
} walk_result;

/* The whole SAMPLE walk, one cursor from offset 0 through every part.
 * Exact consumption: RP_OK only when the cursor stopped at the end of the
 * body. */
/*@ requires rp_layout_ok(L);
    requires rp_span_ok(b);
    requires \valid(out);
    requires \separated(out, L);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *out;
    ensures \result.st == RP_OK || \result.st == RP_E_BODY_SHORT ||
            \result.st == RP_E_LEFTOVER || \result.st == RP_E_RAW_ALIGN ||
            \result.st == RP_E_STACK_DYN;
    ensures exact: \result.st == RP_OK ==> \result.end == rp_span_len(b);
    ensures \result.st == RP_OK ==> rp_sample_inside(out, b);
*/
static walk_result sample_walk(const rp_sample_layout *L, rp_span b, uint32_t variant,
                               rp_sample *out)
{
	const uint64_t st = L->sample_type;
	const uint64_t read_format = L->read_format;
	const uint64_t bst = L->branch_sample_type;
	const uint32_t regs_user_nr = L->regs_user_nr;
	const uint32_t regs_intr_nr = L->regs_intr_nr;
	uint32_t off = 0;
	rp_sample front, back; /* scratch: the two halves are walked apart */
	rp_status r;
	walk_result w;

	w.end = 0u;
	out->present = st;
	if (!walk_fixed_ids(b, &off, st, out)) {
		w.st = RP_E_BODY_SHORT;
		return w;
	}
	r = walk_read_to_branch(b, &off, st, read_format, bst, variant, &front);
	if (r != RP_OK) {
		w.st = r;
		return w;
	}
	const rp_sample front_done = front; /* a value: walk_regs_to_aux cannot touch it */
	r = walk_regs_to_aux(b, &off, st, regs_user_nr, regs_intr_nr, &back);
	if (r != RP_OK) {
		w.st = r;
		return w;
	}
	w.end = off;
	if (w.end != b.n0 + b.n1) {
		w.st = RP_E_LEFTOVER;
		return w;
	}
	gather_walk(out, b, front_done, back);
	w.st = RP_OK;
	return w;
}

rp_status rp_sample_parse_body(const rp_sample_layout *L, rp_span body, rp_sample *out)
{
	const walk_result first = sample_walk(L, body, 0u, out);
	if (first.st == RP_OK) {
		/*@ assert exact: first.end == rp_span_len(body); */
		return RP_OK;
	}
	if (!(L->sample_type & RP_SAMPLE_BRANCH_STACK) ||
	    !(L->branch_sample_type & (RP_BRANCH_HW_INDEX | RP_BRANCH_COUNTERS)))
		return first.st;
	/*@ loop invariant 1 <= v <= 4;
	    loop assigns v, *out;
	    loop variant 4 - v;
	*/
	for (uint32_t v = 1u; v < 4u; v++) {
		const walk_result w = sample_walk(L, body, v, out);
		if (w.st == RP_OK) {
			/*@ assert exact: w.end == rp_span_len(body); */
			return RP_OK;
		}
	}
	return first.st;
}

rp_status rp_sample_parse(const rp_sample_layout *L, const rp_record *rec, rp_sample *out)
{
	if (rec->type != RP_RECORD_SAMPLE)
		return RP_E_TYPE;
	return rp_sample_parse_body(L, rec->body, out);
}
