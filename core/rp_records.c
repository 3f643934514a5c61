#include "rp_records.h"
#include "rp_cursor.h"

/* The trailer's fields from *off of b: one 8-byte field per trailer bit
 * of st, in the kernel's order.  true when all fit, *off then moved by 8
 * per field (`moved`: what lets rp_sample_id_parse prove `filled` in a few
 * steps).  Each bit is (st / bit) % 2, the form id_trailer_size counts and
 * the contracts state: with st & bit, cvc4 ran for minutes within its step
 * budget on a mutant's failing goal (proofs/README.md). */
/*@ requires rp_cur_ok(b, off);
    requires \valid(sid) && \separated(sid, off);
    requires RP_APART_FROM_SPAN(sid, b);
    assigns *off, sid->pid, sid->tid, sid->time, sid->id, sid->stream_id, sid->cpu, sid->res,
            sid->identifier;
    ensures moved: \result == \true ==> *off == \old(*off) + 8 * (
              st / RP_SAMPLE_TID % 2 + st / RP_SAMPLE_TIME % 2 + st / RP_SAMPLE_ID % 2 +
              st / RP_SAMPLE_STREAM_ID % 2 + st / RP_SAMPLE_CPU % 2 + st / RP_SAMPLE_IDENTIFIER % 2);
*/
static bool take_trailer_fields(rp_span b, uint32_t *off, uint64_t st, rp_sample_id *sid)
{
	return rp_take_opt_u32x2(b, off, st / RP_SAMPLE_TID % 2u != 0, &sid->pid, &sid->tid) &&
	       rp_take_opt_u64(b, off, st / RP_SAMPLE_TIME % 2u != 0, &sid->time) &&
	       rp_take_opt_u64(b, off, st / RP_SAMPLE_ID % 2u != 0, &sid->id) &&
	       rp_take_opt_u64(b, off, st / RP_SAMPLE_STREAM_ID % 2u != 0, &sid->stream_id) &&
	       rp_take_opt_u32x2(b, off, st / RP_SAMPLE_CPU % 2u != 0, &sid->cpu, &sid->res) &&
	       rp_take_opt_u64(b, off, st / RP_SAMPLE_IDENTIFIER % 2u != 0, &sid->identifier);
}

rp_status rp_sample_id_parse(const rp_sample_layout *L, rp_span body, rp_sample_id *out)
{
	const uint64_t st = L->sample_type;
	const uint32_t len = body.n0 + body.n1;
	rp_sample_id sid;

	if (len < L->id_size)
		return RP_E_BODY_SHORT;
	uint32_t off = len - L->id_size;
	sid.present = st & (RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID | RP_SAMPLE_STREAM_ID |
	                    RP_SAMPLE_CPU | RP_SAMPLE_IDENTIFIER);
	if (!take_trailer_fields(body, &off, st, &sid))
		return RP_E_BODY_SHORT;
	/* A layout whose id_size is not 8 per trailer field of its sample_type
	 * (never one rp_sample_layout_make wrote) leaves bytes unread. */
	if (off != len)
		return RP_E_LEFTOVER;
	*out = sid;
	return RP_OK;
}

/* Each parser below reads one payload type from offset *off (0) of p; the
 * caller checks that *off reached the end.  They return false when a field
 * does not fit.  The fields go to a local and *o is stored once, after the
 * last one: each take's precondition (its out valid and apart from the
 * cursor and the span) is then trivial, where a field of *o cost goals per
 * call and path, 14-32 % of each parser's (parse_mmap2's hardest goal:
 * 459,836 steps with writes through o, 62,249 with the local).  parse_read
 * keeps its writes through o: with a local, cvc4 ran for 15 minutes on its
 * READ view carried across the copy (proofs/README.md). */

/*@ requires rp_cur_ok(p, off);
    requires \valid(pid) && \valid(tid) && \separated(pid, tid, off);
    requires RP_APART_FROM_SPAN(pid, p);
    requires RP_APART_FROM_SPAN(tid, p);
    assigns *off, *pid, *tid;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p);
*/
static bool take_pid_tid(rp_span p, uint32_t *off, uint32_t *pid, uint32_t *tid)
{
	return rp_take_u32(p, off, pid) && rp_take_u32(p, off, tid);
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->filename, p);
*/
static bool parse_mmap(rp_span p, uint32_t *off, rp_ev_mmap *o)
{
	rp_ev_mmap m;

	if (!take_pid_tid(p, off, &m.pid, &m.tid) || !rp_take_u64(p, off, &m.addr) ||
	    !rp_take_u64(p, off, &m.len) || !rp_take_u64(p, off, &m.pgoff))
		return false;
	rp_take_string(p, off, &m.filename);
	*o = m;
	return true;
}

/* MMAP2's last fields: u32 prot, flags; char filename[]. */
/*@ requires rp_cur_ok(p, off);
    requires \valid(prot) && \valid(flags) && \valid(name) && \separated(prot, flags, name, off);
    requires RP_APART_FROM_SPAN(prot, p);
    requires RP_APART_FROM_SPAN(flags, p);
    requires RP_APART_FROM_SPAN(name, p);
    assigns *off, *prot, *flags, *name;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(*name, p);
*/
static bool take_prot_flags_name(rp_span p, uint32_t *off, uint32_t *prot, uint32_t *flags,
                                 rp_span *name)
{
	if (!rp_take_u32(p, off, prot) || !rp_take_u32(p, off, flags))
		return false;
	rp_take_string(p, off, name);
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_BUILD_ID_SIZE;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->filename, p) &&
                                 rp_span_inside(o->build_id, p);
*/
static rp_status parse_mmap2(rp_span p, uint32_t *off, bool build_id, rp_ev_mmap2 *o)
{
	uint8_t pad8;
	uint16_t pad16;
	rp_span id_field;
	rp_ev_mmap2 m;

	m.has_build_id = build_id;
	m.maj = 0u;
	m.min = 0u;
	m.ino = 0u;
	m.ino_generation = 0u;
	m.build_id_size = 0u;
	m.build_id = rp_span_empty_of(p);
	if (!take_pid_tid(p, off, &m.pid, &m.tid) || !rp_take_u64(p, off, &m.addr) ||
	    !rp_take_u64(p, off, &m.len) || !rp_take_u64(p, off, &m.pgoff))
		return RP_E_BODY_SHORT;
	if (build_id) {
		if (!rp_take_u8(p, off, &m.build_id_size) || !rp_take_u8(p, off, &pad8) ||
		    !rp_take_u16(p, off, &pad16))
			return RP_E_BODY_SHORT;
		uint32_t at = *off;
		if (!rp_take_span(p, off, 20u, &id_field))
			return RP_E_BODY_SHORT;
		if (m.build_id_size > 20u)
			return RP_E_BUILD_ID_SIZE;
		(void)rp_take_span(p, &at, m.build_id_size, &m.build_id);
	} else {
		if (!rp_take_u32(p, off, &m.maj) || !rp_take_u32(p, off, &m.min) ||
		    !rp_take_u64(p, off, &m.ino) || !rp_take_u64(p, off, &m.ino_generation))
			return RP_E_BODY_SHORT;
	}
	/*@ assert rp_span_inside(m.build_id, p); */
	if (!take_prot_flags_name(p, off, &m.prot, &m.flags, &m.filename))
		return RP_E_BODY_SHORT;
	*o = m;
	return RP_OK;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->entries, p);
*/
static bool parse_namespaces(rp_span p, uint32_t *off, rp_ev_namespaces *o)
{
	rp_ev_namespaces n;

	if (!take_pid_tid(p, off, &n.pid, &n.tid) || !rp_take_u64(p, off, &n.nr) ||
	    !rp_take_array(p, off, n.nr, 16u, &n.entries))
		return false;
	*o = n;
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->name, p);
*/
static bool parse_ksymbol(rp_span p, uint32_t *off, rp_ev_ksymbol *o)
{
	rp_ev_ksymbol k;

	if (!rp_take_u64(p, off, &k.addr) || !rp_take_u32(p, off, &k.len) ||
	    !rp_take_u16(p, off, &k.ksym_type) || !rp_take_u16(p, off, &k.flags))
		return false;
	rp_take_string(p, off, &k.name);
	*o = k;
	return true;
}

/* The bytes are zero-padded to 8: up to 7 padding bytes may follow. */
/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->old_bytes, p) &&
                                 rp_span_inside(o->new_bytes, p);
*/
static bool parse_text_poke(rp_span p, uint32_t *off, rp_ev_text_poke *o)
{
	rp_ev_text_poke t;

	if (!rp_take_u64(p, off, &t.addr) || !rp_take_u16(p, off, &t.old_len) ||
	    !rp_take_u16(p, off, &t.new_len) ||
	    !rp_take_span(p, off, t.old_len, &t.old_bytes) ||
	    !rp_take_span(p, off, t.new_len, &t.new_bytes))
		return false;
	*o = t;
	const uint32_t rest = (p.n0 + p.n1) - *off;
	if (rest >= 8u)
		return true; /* leftover: the caller sees *off short of the end */
	*off += rest;
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->ips, p);
*/
static bool parse_callchain_deferred(rp_span p, uint32_t *off, rp_ev_callchain_deferred *o)
{
	rp_ev_callchain_deferred c;

	if (!rp_take_u64(p, off, &c.cookie) || !rp_take_u64(p, off, &c.nr) ||
	    !rp_take_array(p, off, c.nr, 8u, &c.ips))
		return false;
	*o = c;
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p);
*/
static bool parse_lost(rp_span p, uint32_t *off, rp_ev_lost *o)
{
	rp_ev_lost l;

	if (!rp_take_u64(p, off, &l.id) || !rp_take_u64(p, off, &l.lost))
		return false;
	*o = l;
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->comm, p);
*/
static bool parse_comm(rp_span p, uint32_t *off, rp_ev_comm *o)
{
	rp_ev_comm c;

	if (!take_pid_tid(p, off, &c.pid, &c.tid))
		return false;
	rp_take_string(p, off, &c.comm);
	*o = c;
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p);
*/
static bool parse_task(rp_span p, uint32_t *off, rp_ev_task *o)
{
	rp_ev_task t;

	if (!rp_take_u32(p, off, &t.pid) || !rp_take_u32(p, off, &t.ppid) ||
	    !rp_take_u32(p, off, &t.tid) || !rp_take_u32(p, off, &t.ptid) ||
	    !rp_take_u64(p, off, &t.time))
		return false;
	*o = t;
	return true;
}

/* Three u64 (THROTTLE/UNTHROTTLE: time, id, stream_id; AUX: offset, size, flags). */
/*@ requires rp_cur_ok(p, off);
    requires \valid(x) && \valid(y) && \valid(z) && \separated(x, y, z, off);
    requires RP_APART_FROM_SPAN(x, p);
    requires RP_APART_FROM_SPAN(y, p);
    requires RP_APART_FROM_SPAN(z, p);
    assigns *off, *x, *y, *z;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p);
*/
static bool parse_3u64(rp_span p, uint32_t *off, uint64_t *x, uint64_t *y, uint64_t *z)
{
	return rp_take_u64(p, off, x) && rp_take_u64(p, off, y) && rp_take_u64(p, off, z);
}

/*@ requires rp_layout_ok(L);
    requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off, L);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_read_inside(&o->values, p);
*/
static bool parse_read(const rp_sample_layout *L, rp_span p, uint32_t *off, rp_ev_read *o)
{
	return take_pid_tid(p, off, &o->pid, &o->tid) &&
	       rp_take_read_values(p, off, L->read_format, &o->values) == RP_OK;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->tag, p);
*/
static bool parse_bpf_event(rp_span p, uint32_t *off, rp_ev_bpf_event *o)
{
	rp_ev_bpf_event b;

	if (!rp_take_u16(p, off, &b.type) || !rp_take_u16(p, off, &b.flags) ||
	    !rp_take_u32(p, off, &b.id) || !rp_take_span(p, off, 8u, &b.tag))
		return false;
	*o = b;
	return true;
}

/*@ requires rp_cur_ok(p, off);
    requires \valid(o) && \separated(o, off);
    requires RP_APART_FROM_SPAN(o, p);
    assigns *off, *o;
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, p) &&
                                 rp_span_inside(o->path, p);
*/
static bool parse_cgroup(rp_span p, uint32_t *off, rp_ev_cgroup *o)
{
	rp_ev_cgroup c;

	if (!rp_take_u64(p, off, &c.id))
		return false;
	rp_take_string(p, off, &c.path);
	*o = c;
	return true;
}

/* A parser's bool as a status. */
/*@ assigns \nothing;
    ensures ok ==> \result == RP_OK;
    ensures !ok ==> \result == RP_E_BODY_SHORT;
*/
static rp_status body_short_unless(bool ok)
{
	return ok ? RP_OK : RP_E_BODY_SHORT;
}

/*@ requires rp_layout_ok(L);
    requires rp_cur_ok(p, off);
    requires \valid(out) && \separated(out, off, L);
    requires RP_APART_FROM_SPAN(out, p);
    requires RP_RECORD_MMAP <= type <= RP_RECORD_CALLCHAIN_DEFERRED && type != RP_RECORD_SAMPLE;
    assigns *off, *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_BUILD_ID_SIZE;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, p);
    ensures \result == RP_OK ==> rp_payload_views_inside(type, out, p);
*/
static rp_status parse_payload(const rp_sample_layout *L, rp_span p, uint32_t *off,
                               uint32_t type, uint16_t misc, rp_event *out)
{
	/* One call per type and a direct return: no merged paths.  The default
	 * case holds no call: WP 25 cannot prove the assigns clause for a call's
	 * temporary on a switch's default path (it lacks that the temporary is
	 * unallocated at entry). */
	switch (type) {
	case RP_RECORD_MMAP:
		return body_short_unless(parse_mmap(p, off, &out->mmap));
	case RP_RECORD_LOST:
		return body_short_unless(parse_lost(p, off, &out->lost));
	case RP_RECORD_COMM:
		return body_short_unless(parse_comm(p, off, &out->comm));
	case RP_RECORD_EXIT:
	case RP_RECORD_FORK:
		return body_short_unless(parse_task(p, off, &out->task));
	case RP_RECORD_THROTTLE:
	case RP_RECORD_UNTHROTTLE:
		return body_short_unless(parse_3u64(p, off, &out->throttle.time, &out->throttle.id,
		                                    &out->throttle.stream_id));
	case RP_RECORD_READ:
		return body_short_unless(parse_read(L, p, off, &out->read));
	case RP_RECORD_MMAP2:
		return parse_mmap2(p, off, (misc & RP_MISC_MMAP_BUILD_ID) != 0, &out->mmap2);
	case RP_RECORD_AUX:
		return body_short_unless(parse_3u64(p, off, &out->aux.aux_offset, &out->aux.aux_size,
		                                    &out->aux.flags));
	case RP_RECORD_ITRACE_START:
		return body_short_unless(take_pid_tid(p, off, &out->itrace_start.pid, &out->itrace_start.tid));
	case RP_RECORD_LOST_SAMPLES:
		return body_short_unless(rp_take_u64(p, off, &out->lost_samples.lost));
	case RP_RECORD_SWITCH_CPU_WIDE:
		return body_short_unless(take_pid_tid(p, off, &out->switch_cpu_wide.next_prev_pid,
		                                      &out->switch_cpu_wide.next_prev_tid));
	case RP_RECORD_NAMESPACES:
		return body_short_unless(parse_namespaces(p, off, &out->namespaces));
	case RP_RECORD_KSYMBOL:
		return body_short_unless(parse_ksymbol(p, off, &out->ksymbol));
	case RP_RECORD_BPF_EVENT:
		return body_short_unless(parse_bpf_event(p, off, &out->bpf_event));
	case RP_RECORD_CGROUP:
		return body_short_unless(parse_cgroup(p, off, &out->cgroup));
	case RP_RECORD_TEXT_POKE:
		return body_short_unless(parse_text_poke(p, off, &out->text_poke));
	case RP_RECORD_AUX_OUTPUT_HW_ID:
		return body_short_unless(rp_take_u64(p, off, &out->aux_output_hw_id.hw_id));
	case RP_RECORD_CALLCHAIN_DEFERRED:
		return body_short_unless(parse_callchain_deferred(p, off, &out->callchain_deferred));
	default: /* RP_RECORD_SWITCH: no payload */
		return RP_OK;
	}
}

/* The payload walk: parse_payload with one cursor from offset 0, then the
 * exactness check.  *end receives where the cursor stopped; RP_OK only when
 * that is the end of the payload (the fields consumed it exactly). */
/*@ requires rp_layout_ok(L);
    requires rp_span_ok(p);
    requires \valid(out) && \valid(end) && \separated(out, L) && \separated(end, out, L);
    requires RP_APART_FROM_SPAN(out, p);
    requires RP_APART_FROM_SPAN(end, p);
    requires RP_RECORD_MMAP <= type <= RP_RECORD_CALLCHAIN_DEFERRED && type != RP_RECORD_SAMPLE;
    assigns *end, *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT || \result == RP_E_BUILD_ID_SIZE ||
            \result == RP_E_LEFTOVER;
    ensures exact: \result == RP_OK ==> *end == rp_span_len(p);
    ensures \result == RP_OK ==> rp_payload_views_inside(type, out, p);
*/
static rp_status walk_payload(const rp_sample_layout *L, rp_span p, uint32_t type, uint16_t misc,
                              rp_event *out, uint32_t *end)
{
	uint32_t off = 0;
	const rp_status r = parse_payload(L, p, &off, type, misc, out);
	if (r != RP_OK)
		return r;
	*end = off;
	if (off != p.n0 + p.n1)
		return RP_E_LEFTOVER;
	return RP_OK;
}

rp_status rp_record_parse(const rp_sample_layout *L, const rp_record *rec, rp_event *out)
{
	const uint32_t type = rec->type;
	const rp_span body = rec->body;
	rp_span payload;
	uint32_t end; /* where the payload walk stopped */

	out->type = type;
	out->misc = rec->misc;
	out->has_sample_id = false;
	if (type < RP_RECORD_MMAP || type > RP_RECORD_CALLCHAIN_DEFERRED)
		return RP_E_UNKNOWN_TYPE;
	if (type == RP_RECORD_SAMPLE)
		return rp_sample_parse_body(L, body, &out->sample);
	if (L->sample_id_all) {
		const rp_status r = rp_sample_id_parse(L, body, &out->sample_id);
		if (r != RP_OK)
			return r;
		out->has_sample_id = true;
	}
	/* rp_sample_id_parse returned RP_OK only if the trailer fits */
	const uint32_t trailer = L->sample_id_all ? L->id_size : 0u;
	/*@ assert trailer_fits: trailer <= body.n0 + body.n1; */
	payload = rp_span_prefix_of(body, (body.n0 + body.n1) - trailer);
	const rp_status r = walk_payload(L, payload, type, rec->misc, out, &end);
	if (r != RP_OK)
		return r;
	/* exact consumption, trailer included: the payload walk ended where the
	 * trailer (the last `trailer` bytes) begins */
	/*@ assert exact: end + trailer == rp_span_len(body); */
	/* the READ view, lifted from payload to body before the header writes */
	/*@ assert type == RP_RECORD_READ ==> rp_span_inside(out->read.values.entries, payload); */
	/*@ assert rp_span_prefix(payload, body); */
	/*@ assert type == RP_RECORD_READ ==> rp_span_inside(out->read.values.entries, body); */
	/*@ assert type == RP_RECORD_READ ==> rp_read_inside(&out->read.values, body); */
	/* then every view, and the same after the header writes (two short
	 * goals: one that lifts, one that crosses the writes) */
	/*@ assert views: rp_payload_views_inside(type, out, body); */
	/* parse_payload's contract may write all of *out: restate the header */
	out->type = type;
	out->misc = rec->misc;
	out->has_sample_id = L->sample_id_all;
	/*@ assert views_kept: rp_payload_views_inside(out->type, out, body); */
	return RP_OK;
}
