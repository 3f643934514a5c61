#include "rp_sample.h"

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
    ensures \result <= 48;
*/
static uint32_t id_trailer_size(uint64_t st)
{
	uint32_t n = 0;

	if (st & RP_SAMPLE_TID)
		n += 8u;
	if (st & RP_SAMPLE_TIME)
		n += 8u;
	if (st & RP_SAMPLE_ID)
		n += 8u;
	if (st & RP_SAMPLE_STREAM_ID)
		n += 8u;
	if (st & RP_SAMPLE_CPU)
		n += 8u;
	if (st & RP_SAMPLE_IDENTIFIER)
		n += 8u;
	return n;
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
	return ip >= (uint64_t)-4095;
}

/*@ assigns \nothing;
    ensures \result.n0 == 0 && \result.n1 == 0 && \result.p1 == b.p1;
    ensures rp_span_ok(\result);
*/
static rp_span empty_span(rp_span b)
{
	rp_span e = { b.p0, b.p1, 0u, 0u };
	return e;
}

rp_status rp_take_read_values(rp_span b, uint32_t *off, uint64_t read_format,
                              rp_read_values *out)
{
	out->group = (read_format & RP_FORMAT_GROUP) != 0;
	out->has_enabled = (read_format & RP_FORMAT_TOTAL_TIME_ENABLED) != 0;
	out->has_running = (read_format & RP_FORMAT_TOTAL_TIME_RUNNING) != 0;
	out->has_id = (read_format & RP_FORMAT_ID) != 0;
	out->has_lost = (read_format & RP_FORMAT_LOST) != 0;
	out->nr = 1u;
	out->time_enabled = 0u;
	out->time_running = 0u;
	out->value = 0u;
	out->id = 0u;
	out->lost = 0u;
	out->entry_size = 0u;
	out->entries = empty_span(b);

	if (!rp_take_u64(b, off, out->group ? &out->nr : &out->value))
		return RP_E_BODY_SHORT;
	if (out->has_enabled && !rp_take_u64(b, off, &out->time_enabled))
		return RP_E_BODY_SHORT;
	if (out->has_running && !rp_take_u64(b, off, &out->time_running))
		return RP_E_BODY_SHORT;
	if (out->group) {
		out->entry_size = 8u + (out->has_id ? 8u : 0u) + (out->has_lost ? 8u : 0u);
		if (!rp_take_array(b, off, out->nr, out->entry_size, &out->entries))
			return RP_E_BODY_SHORT;
		return RP_OK;
	}
	if (out->has_id && !rp_take_u64(b, off, &out->id))
		return RP_E_BODY_SHORT;
	if (out->has_lost && !rp_take_u64(b, off, &out->lost))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

bool rp_read_entry(const rp_read_values *r, uint32_t i, uint64_t *value,
                   uint64_t *id, uint64_t *lost)
{
	if (!r->group || r->entry_size == 0u || r->entry_size > 24u || i >= r->nr)
		return false;
	const uint64_t at = (uint64_t)i * r->entry_size;
	if (at > UINT32_MAX - 24u)
		return false;
	uint32_t off = (uint32_t)at;
	uint64_t v = 0, d = 0, l = 0;
	if (!rp_span_get_u64(r->entries, off, &v))
		return false;
	off += 8u;
	if (r->has_id) {
		if (!rp_span_get_u64(r->entries, off, &d))
			return false;
		off += 8u;
	}
	if (r->has_lost && !rp_span_get_u64(r->entries, off, &l))
		return false;
	*value = v;
	*id = d;
	*lost = l;
	return true;
}

/* u32 size; u8 data[size]: size includes the padding that keeps the
 * record 8-aligned, so 4 + size is a multiple of 8. */
/*@ requires rp_cur_ok(b, off);
    requires \valid(size) && \valid(view) && \separated(size, view, off);
    requires \separated(size, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, *size, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_RAW_ALIGN;
    ensures \result == RP_OK ==> \old(*off) <= *off <= rp_span_len(b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b) && rp_span_len(*view) == *size;
*/
static rp_status take_raw(rp_span b, uint32_t *off, uint32_t *size, rp_span *view)
{
	if (!rp_take_u32(b, off, size))
		return RP_E_BODY_SHORT;
	if ((*size + 4ull) % 8u != 0)
		return RP_E_RAW_ALIGN;
	if (!rp_take_span(b, off, *size, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* u64 nr; u64 elems[nr] (callchain ips). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(nr) && \valid(view) && \separated(nr, view, off);
    requires \separated(nr, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, *nr, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> \old(*off) <= *off <= rp_span_len(b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b) && rp_span_len(*view) == 8 * *nr;
*/
static rp_status take_u64_array(rp_span b, uint32_t *off, uint64_t *nr, rp_span *view)
{
	if (!rp_take_u64(b, off, nr))
		return RP_E_BODY_SHORT;
	if (!rp_take_array(b, off, *nr, 8u, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* u64 size; u8 data[size] (AUX). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(size) && \valid(view) && \separated(size, view, off);
    requires \separated(size, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, *size, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> \old(*off) <= *off <= rp_span_len(b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b) && rp_span_len(*view) == *size;
*/
static rp_status take_sized_bytes(rp_span b, uint32_t *off, uint64_t *size, rp_span *view)
{
	if (!rp_take_u64(b, off, size))
		return RP_E_BODY_SHORT;
	if (!rp_take_array(b, off, *size, 1u, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* u64 abi; u64 regs[nregs] only when abi != 0. */
/*@ requires rp_cur_ok(b, off);
    requires \valid(abi) && \valid(view) && \separated(abi, view, off);
    requires \separated(abi, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, *abi, *view;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> \old(*off) <= *off <= rp_span_len(b);
    ensures \result == RP_OK ==> rp_span_inside(*view, b);
    ensures \result == RP_OK && *abi != 0 ==> rp_span_len(*view) == 8 * nregs;
    ensures \result == RP_OK && *abi == 0 ==> rp_span_len(*view) == 0;
*/
static rp_status take_regs(rp_span b, uint32_t *off, uint32_t nregs, uint64_t *abi,
                           rp_span *view)
{
	if (!rp_take_u64(b, off, abi))
		return RP_E_BODY_SHORT;
	*view = empty_span(b);
	if (*abi != 0u && !rp_take_array(b, off, nregs, 8u, view))
		return RP_E_BODY_SHORT;
	return RP_OK;
}

/* u64 size; u8 data[size]; u64 dyn_size only when size != 0 (SPEC.md §8.2). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, out->stack_user_size, out->stack_user, out->has_dyn_size,
            out->stack_user_dyn_size;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_STACK_DYN;
    ensures \result == RP_OK ==> \old(*off) <= *off <= rp_span_len(b);
    ensures \result == RP_OK ==> rp_span_inside(out->stack_user, b);
*/
static rp_status take_stack(rp_span b, uint32_t *off, rp_sample *out)
{
	out->has_dyn_size = false;
	out->stack_user_dyn_size = 0u;
	if (take_sized_bytes(b, off, &out->stack_user_size, &out->stack_user) != RP_OK)
		return RP_E_BODY_SHORT;
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

/* u64 nr; [u64 hw_idx]; {from, to, flags}[nr]; [u64 cntr[nr]] */
/*@ requires rp_cur_ok(b, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, out->branch_nr, out->has_hw_idx, out->branch_hw_idx,
            out->branch_entries, out->has_branch_counters, out->branch_counters;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> \old(*off) <= *off <= rp_span_len(b);
    ensures \result == RP_OK ==> rp_span_inside(out->branch_entries, b) &&
                                 rp_span_inside(out->branch_counters, b);
*/
static rp_status take_branch(rp_span b, uint32_t *off, uint64_t bst, uint32_t variant,
                             rp_sample *out)
{
	out->has_hw_idx = false;
	out->branch_hw_idx = 0u;
	out->has_branch_counters = false;
	out->branch_entries = empty_span(b);
	out->branch_counters = empty_span(b);
	if (!rp_take_u64(b, off, &out->branch_nr))
		return RP_E_BODY_SHORT;
	if ((bst & RP_BRANCH_HW_INDEX) &&
	    (out->branch_nr != 0u || (variant & BR_HWIDX_WHEN_EMPTY))) {
		if (!rp_take_u64(b, off, &out->branch_hw_idx))
			return RP_E_BODY_SHORT;
		out->has_hw_idx = true;
	}
	if (!rp_take_array(b, off, out->branch_nr, 24u, &out->branch_entries))
		return RP_E_BODY_SHORT;
	if ((bst & RP_BRANCH_COUNTERS) && !(variant & BR_NO_COUNTERS)) {
		if (!rp_take_array(b, off, out->branch_nr, 8u, &out->branch_counters))
			return RP_E_BODY_SHORT;
		out->has_branch_counters = true;
	}
	return RP_OK;
}

/* One optional u64 field. */
/*@ requires rp_cur_ok(b, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, *out;
    ensures \result == \true ==> \old(*off) <= *off <= rp_span_len(b);
*/
static bool opt_u64(rp_span b, uint32_t *off, bool present, uint64_t *out)
{
	*out = 0u;
	return !present || rp_take_u64(b, off, out);
}

/* Two optional u32 fields (pid/tid, cpu/res). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(a) && \valid(c) && \separated(a, c, off);
    requires \separated(a, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    requires \separated(c, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *off, *a, *c;
    ensures \result == \true ==> \old(*off) <= *off <= rp_span_len(b);
*/
static bool opt_u32_pair(rp_span b, uint32_t *off, bool present, uint32_t *a, uint32_t *c)
{
	*a = 0u;
	*c = 0u;
	return !present || (rp_take_u32(b, off, a) && rp_take_u32(b, off, c));
}

/*@ requires rp_layout_ok(L);
    requires rp_span_ok(b);
    requires \valid(out);
    requires \separated(out, L);
    requires \separated(out, b.p0 + (0 .. b.n0 - 1), b.p1 + (0 .. b.n1 - 1));
    assigns *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT ||
            \result == RP_E_LEFTOVER || \result == RP_E_RAW_ALIGN ||
            \result == RP_E_STACK_DYN;
    ensures \result == RP_OK ==> rp_sample_inside(out, b);
*/
static rp_status sample_walk(const rp_sample_layout *L, rp_span b, uint32_t variant,
                             rp_sample *out)
{
	const uint64_t st = L->sample_type;
	uint32_t off = 0;
	rp_status r;

	out->present = st;
	out->callchain_nr = 0u;
	out->callchain = empty_span(b);
	out->raw_size = 0u;
	out->raw = empty_span(b);
	out->branch_nr = 0u;
	out->has_hw_idx = false;
	out->has_branch_counters = false;
	out->branch_hw_idx = 0u;
	out->branch_entries = empty_span(b);
	out->branch_counters = empty_span(b);
	out->regs_user_abi = 0u;
	out->regs_user = empty_span(b);
	out->stack_user_size = 0u;
	out->stack_user = empty_span(b);
	out->has_dyn_size = false;
	out->stack_user_dyn_size = 0u;
	out->regs_intr_abi = 0u;
	out->regs_intr = empty_span(b);
	out->aux_size = 0u;
	out->aux = empty_span(b);
	out->read.entries = empty_span(b);

	if (!opt_u64(b, &off, st & RP_SAMPLE_IDENTIFIER, &out->identifier) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_IP, &out->ip) ||
	    !opt_u32_pair(b, &off, st & RP_SAMPLE_TID, &out->pid, &out->tid) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_TIME, &out->time) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_ADDR, &out->addr) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_ID, &out->id) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_STREAM_ID, &out->stream_id) ||
	    !opt_u32_pair(b, &off, st & RP_SAMPLE_CPU, &out->cpu, &out->cpu_res) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_PERIOD, &out->period))
		return RP_E_BODY_SHORT;
	if (st & RP_SAMPLE_READ) {
		r = rp_take_read_values(b, &off, L->read_format, &out->read);
		if (r != RP_OK)
			return r;
	}
	if (st & RP_SAMPLE_CALLCHAIN) {
		r = take_u64_array(b, &off, &out->callchain_nr, &out->callchain);
		if (r != RP_OK)
			return r;
	}
	if (st & RP_SAMPLE_RAW) {
		r = take_raw(b, &off, &out->raw_size, &out->raw);
		if (r != RP_OK)
			return r;
	}
	if (st & RP_SAMPLE_BRANCH_STACK) {
		r = take_branch(b, &off, L->branch_sample_type, variant, out);
		if (r != RP_OK)
			return r;
	}
	if (st & RP_SAMPLE_REGS_USER) {
		r = take_regs(b, &off, L->regs_user_nr, &out->regs_user_abi, &out->regs_user);
		if (r != RP_OK)
			return r;
	}
	if (st & RP_SAMPLE_STACK_USER) {
		r = take_stack(b, &off, out);
		if (r != RP_OK)
			return r;
	}
	if (!opt_u64(b, &off, st & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT), &out->weight) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_DATA_SRC, &out->data_src) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_TRANSACTION, &out->transaction))
		return RP_E_BODY_SHORT;
	if (st & RP_SAMPLE_REGS_INTR) {
		r = take_regs(b, &off, L->regs_intr_nr, &out->regs_intr_abi, &out->regs_intr);
		if (r != RP_OK)
			return r;
	}
	if (!opt_u64(b, &off, st & RP_SAMPLE_PHYS_ADDR, &out->phys_addr) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_CGROUP, &out->cgroup) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_DATA_PAGE_SIZE, &out->data_page_size) ||
	    !opt_u64(b, &off, st & RP_SAMPLE_CODE_PAGE_SIZE, &out->code_page_size))
		return RP_E_BODY_SHORT;
	if (st & RP_SAMPLE_AUX) {
		r = take_sized_bytes(b, &off, &out->aux_size, &out->aux);
		if (r != RP_OK)
			return r;
	}
	if (off != b.n0 + b.n1)
		return RP_E_LEFTOVER;
	return RP_OK;
}

rp_status rp_sample_parse_body(const rp_sample_layout *L, rp_span body, rp_sample *out)
{
	const rp_status first = sample_walk(L, body, 0u, out);
	if (first == RP_OK)
		return RP_OK;
	if (!(L->sample_type & RP_SAMPLE_BRANCH_STACK) ||
	    !(L->branch_sample_type & (RP_BRANCH_HW_INDEX | RP_BRANCH_COUNTERS)))
		return first;
	/*@ loop invariant 1 <= v <= 4;
	    loop assigns v, *out;
	    loop variant 4 - v;
	*/
	for (uint32_t v = 1u; v < 4u; v++) {
		if (sample_walk(L, body, v, out) == RP_OK)
			return RP_OK;
	}
	return first;
}

rp_status rp_sample_parse(const rp_sample_layout *L, const rp_record *rec, rp_sample *out)
{
	if (rec->type != RP_RECORD_SAMPLE)
		return RP_E_TYPE;
	return rp_sample_parse_body(L, rec->body, out);
}
