/* sample: the SAMPLE and record parsers on a fuzz-chosen layout and body.
 *
 * Input:
 *   [0..8)   sample_type (LE)        [8] read_format
 *   [9]      flags: 1 HW_INDEX, 2 COUNTERS, 4 sample_id_all, 8 keep all
 *            sample_type bits (else masked to the known 25)
 *   [10..18) sample_regs_user        [18..26) sample_regs_intr
 *   [26..28) split: first slice length (mod body length + 1)
 *   [28]     record type (mod 24; 23 is unknown)   [29..31) misc
 *   [31..)   record body, at most 65528 bytes
 * The body is copied into two separate heap slices.  Oracles: the layout
 * status matches an independent check; a SAMPLE's status, every field and
 * every view match a reference walk written here over the flat body (sum of
 * field sizes == body length on success); for other records every view lies
 * inside the body, strings have no NUL and stop at one or at the field end,
 * the trailer matches a reference read from the end (a short one refused),
 * and rp_sample_parse refuses them with RP_E_TYPE.  A READ value set
 * (in a SAMPLE or a READ record) is read back entry by entry with
 * rp_read_entry against the body's bytes. */
#include <stdlib.h>
#include <string.h>

#include "fz_util.h"
#include "rp_records.h"
#include "rp_sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- reference walk over a flat body ---- */

typedef struct ref {
	const uint8_t *b;
	uint32_t len, off;
	bool ok;
} ref;

static uint64_t r64(ref *r)
{
	if (!r->ok || r->len - r->off < 8) {
		r->ok = false;
		return 0;
	}
	uint64_t v = fz_le64(r->b + r->off);
	r->off += 8;
	return v;
}

static uint32_t r32(ref *r)
{
	if (!r->ok || r->len - r->off < 4) {
		r->ok = false;
		return 0;
	}
	uint32_t v = fz_le32(r->b + r->off);
	r->off += 4;
	return v;
}

/* skip n bytes, return their offset */
static uint32_t rskip(ref *r, uint64_t n)
{
	uint32_t at = r->off;
	if (!r->ok || n > r->len - r->off) {
		r->ok = false;
		return 0;
	}
	r->off += (uint32_t)n;
	return at;
}

typedef struct expect {
	rp_status st;
	uint64_t v[64];   /* fixed values in walk order */
	uint32_t nv;
	uint32_t voff[16], vlen[16]; /* views in walk order */
	uint32_t nview;
} expect;

static void val(expect *e, uint64_t v) { e->v[e->nv++] = v; }
static void view(expect *e, uint32_t off, uint64_t len)
{
	e->voff[e->nview] = off;
	e->vlen[e->nview++] = (uint32_t)len;
}

static void ref_sample(const rp_sample_layout *L, const uint8_t *b, uint32_t len,
                       unsigned variant, expect *e)
{
	const uint64_t st = L->sample_type;
	ref r = { b, len, 0, true };
	memset(e, 0, sizeof *e);
#define F64(bit) do { if (st & (bit)) val(e, r64(&r)); } while (0)
#define F32x2(bit) do { if (st & (bit)) { val(e, r32(&r)); val(e, r32(&r)); } } while (0)
	F64(RP_SAMPLE_IDENTIFIER); F64(RP_SAMPLE_IP); F32x2(RP_SAMPLE_TID); F64(RP_SAMPLE_TIME);
	F64(RP_SAMPLE_ADDR); F64(RP_SAMPLE_ID); F64(RP_SAMPLE_STREAM_ID); F32x2(RP_SAMPLE_CPU);
	F64(RP_SAMPLE_PERIOD);
	if (st & RP_SAMPLE_READ) {
		const uint64_t rf = L->read_format;
		if (rf & RP_FORMAT_GROUP) {
			uint64_t nr = r64(&r);
			val(e, nr);
			if (rf & RP_FORMAT_TOTAL_TIME_ENABLED) val(e, r64(&r));
			if (rf & RP_FORMAT_TOTAL_TIME_RUNNING) val(e, r64(&r));
			uint64_t esz = 8 + ((rf & RP_FORMAT_ID) ? 8 : 0) + ((rf & RP_FORMAT_LOST) ? 8 : 0);
			uint64_t bytes = nr > len ? (uint64_t)len + 1 : nr * esz;
			view(e, rskip(&r, bytes), bytes);
		} else {
			val(e, r64(&r));
			if (rf & RP_FORMAT_TOTAL_TIME_ENABLED) val(e, r64(&r));
			if (rf & RP_FORMAT_TOTAL_TIME_RUNNING) val(e, r64(&r));
			if (rf & RP_FORMAT_ID) val(e, r64(&r));
			if (rf & RP_FORMAT_LOST) val(e, r64(&r));
		}
	}
	if (st & RP_SAMPLE_CALLCHAIN) {
		uint64_t nr = r64(&r);
		val(e, nr);
		uint64_t bytes = nr > len ? (uint64_t)len + 1 : nr * 8;
		view(e, rskip(&r, bytes), bytes);
	}
	if (st & RP_SAMPLE_RAW) {
		uint32_t n = r32(&r);
		val(e, n);
		if (r.ok && (n + 4ull) % 8 != 0) {
			e->st = RP_E_RAW_ALIGN;
			return;
		}
		view(e, rskip(&r, n), n);
	}
	if (st & RP_SAMPLE_BRANCH_STACK) {
		uint64_t nr = r64(&r);
		val(e, nr);
		if ((L->branch_sample_type & RP_BRANCH_HW_INDEX) && (nr || (variant & 1)))
			val(e, r64(&r));
		uint64_t bytes = nr > len ? (uint64_t)len + 1 : nr * 24;
		view(e, rskip(&r, bytes), bytes);
		if ((L->branch_sample_type & RP_BRANCH_COUNTERS) && !(variant & 2)) {
			bytes = nr > len ? (uint64_t)len + 1 : nr * 8;
			view(e, rskip(&r, bytes), bytes);
		}
	}
	for (int k = 0; k < 2; k++) {
		if (k == 1) {
			if (st & RP_SAMPLE_STACK_USER) {
				uint64_t n = r64(&r);
				val(e, n);
				view(e, rskip(&r, n), n);
				if (r.ok && n) {
					uint64_t dyn = r64(&r);
					val(e, dyn);
					if (r.ok && dyn > n) {
						e->st = RP_E_STACK_DYN;
						return;
					}
				}
			}
			break;
		}
		if (st & RP_SAMPLE_REGS_USER) {
			uint64_t abi = r64(&r);
			val(e, abi);
			if (abi)
				view(e, rskip(&r, 8ull * L->regs_user_nr), 8ull * L->regs_user_nr);
		}
	}
	F64(RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT); F64(RP_SAMPLE_DATA_SRC); F64(RP_SAMPLE_TRANSACTION);
	if (st & RP_SAMPLE_REGS_INTR) {
		uint64_t abi = r64(&r);
		val(e, abi);
		if (abi)
			view(e, rskip(&r, 8ull * L->regs_intr_nr), 8ull * L->regs_intr_nr);
	}
	F64(RP_SAMPLE_PHYS_ADDR); F64(RP_SAMPLE_CGROUP); F64(RP_SAMPLE_DATA_PAGE_SIZE);
	F64(RP_SAMPLE_CODE_PAGE_SIZE);
	if (st & RP_SAMPLE_AUX) {
		uint64_t n = r64(&r);
		val(e, n);
		view(e, rskip(&r, n), n);
	}
#undef F64
#undef F32x2
	e->st = !r.ok ? RP_E_BODY_SHORT : r.off != len ? RP_E_LEFTOVER : RP_OK;
}

/* ---- checks on the parser's output ---- */

typedef struct body2 {
	const uint8_t *p0, *p1;
	uint32_t n0, n1;
} body2;

/* Offset of view v inside the body, or -1 if any byte lies outside it. */
static int64_t view_off(const body2 *B, rp_span v)
{
	const uintptr_t a0 = (uintptr_t)B->p0, a1 = (uintptr_t)B->p1;
	const uint32_t n = v.n0 + v.n1;
	if (n == 0)
		return -2; /* empty: anywhere */
	const uintptr_t s = (uintptr_t)v.p0;
	int64_t off;
	if (v.n0 && s >= a0 && s + v.n0 <= a0 + B->n0)
		off = (int64_t)(s - a0);
	else if (v.n0 && s >= a1 && s + v.n0 <= a1 + B->n1)
		off = (int64_t)(s - a1) + B->n0;
	else if (v.n0 == 0 && v.n1 == 0)
		return -2;
	else
		return -1;
	if (v.n1) { /* must continue exactly at the start of the second slice */
		FZ_CHECK(off + v.n0 == B->n0 && v.p1 == B->p1 && v.n1 <= B->n1,
		         "wrapped view not contiguous in the body");
	}
	return off;
}

static void check_view(const body2 *B, rp_span v, uint32_t exp_off, uint32_t exp_len)
{
	FZ_CHECK(v.n0 + v.n1 == exp_len, "view length %u, expected %u", v.n0 + v.n1, exp_len);
	const int64_t off = view_off(B, v);
	FZ_CHECK(off != -1, "view outside the body");
	if (off >= 0)
		FZ_CHECK(off == exp_off, "view at %lld, expected %u", (long long)off, exp_off);
}

static void check_inside(const body2 *B, rp_span v)
{
	FZ_CHECK(view_off(B, v) != -1, "view outside the body");
}

static void check_sample(const rp_sample_layout *L, const body2 *B, const rp_sample *s, const expect *e)
{
	const uint64_t st = L->sample_type;
	uint64_t got[64];
	uint32_t n = 0;
	uint32_t nview = 0;
	rp_span views[16];
#define G(bit, x) do { if (st & (bit)) got[n++] = (x); } while (0)
	G(RP_SAMPLE_IDENTIFIER, s->identifier); G(RP_SAMPLE_IP, s->ip);
	G(RP_SAMPLE_TID, s->pid); G(RP_SAMPLE_TID, s->tid); G(RP_SAMPLE_TIME, s->time);
	G(RP_SAMPLE_ADDR, s->addr); G(RP_SAMPLE_ID, s->id); G(RP_SAMPLE_STREAM_ID, s->stream_id);
	G(RP_SAMPLE_CPU, s->cpu); G(RP_SAMPLE_CPU, s->cpu_res); G(RP_SAMPLE_PERIOD, s->period);
	if (st & RP_SAMPLE_READ) {
		const rp_read_values *r = &s->read;
		got[n++] = r->group ? r->nr : r->value;
		if (r->has_enabled) got[n++] = r->time_enabled;
		if (r->has_running) got[n++] = r->time_running;
		if (r->group) {
			views[nview++] = r->entries;
		} else {
			if (r->has_id) got[n++] = r->id;
			if (r->has_lost) got[n++] = r->lost;
		}
	}
	if (st & RP_SAMPLE_CALLCHAIN) { got[n++] = s->callchain_nr; views[nview++] = s->callchain; }
	if (st & RP_SAMPLE_RAW) { got[n++] = s->raw_size; views[nview++] = s->raw; }
	if (st & RP_SAMPLE_BRANCH_STACK) {
		got[n++] = s->branch_nr;
		if (s->has_hw_idx) got[n++] = s->branch_hw_idx;
		views[nview++] = s->branch_entries;
		if (s->has_branch_counters) views[nview++] = s->branch_counters;
	}
	if (st & RP_SAMPLE_REGS_USER) { got[n++] = s->regs_user_abi; if (s->regs_user_abi) views[nview++] = s->regs_user; }
	if (st & RP_SAMPLE_STACK_USER) {
		got[n++] = s->stack_user_size;
		views[nview++] = s->stack_user;
		FZ_CHECK(s->has_dyn_size == (s->stack_user_size != 0), "dyn_size presence");
		if (s->has_dyn_size) got[n++] = s->stack_user_dyn_size;
	}
	G(RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT, s->weight); G(RP_SAMPLE_DATA_SRC, s->data_src);
	G(RP_SAMPLE_TRANSACTION, s->transaction);
	if (st & RP_SAMPLE_REGS_INTR) { got[n++] = s->regs_intr_abi; if (s->regs_intr_abi) views[nview++] = s->regs_intr; }
	G(RP_SAMPLE_PHYS_ADDR, s->phys_addr); G(RP_SAMPLE_CGROUP, s->cgroup);
	G(RP_SAMPLE_DATA_PAGE_SIZE, s->data_page_size); G(RP_SAMPLE_CODE_PAGE_SIZE, s->code_page_size);
	if (st & RP_SAMPLE_AUX) { got[n++] = s->aux_size; views[nview++] = s->aux; }
#undef G
	FZ_CHECK(n == e->nv, "%u values, reference %u", n, e->nv);
	for (uint32_t i = 0; i < n; i++)
		FZ_CHECK(got[i] == e->v[i], "value %u differs", i);
	FZ_CHECK(nview == e->nview, "%u views, reference %u", nview, e->nview);
	uint64_t sum = 0;
	for (uint32_t i = 0; i < nview; i++) {
		check_view(B, views[i], e->voff[i], e->vlen[i]);
		sum += e->vlen[i];
	}
	(void)sum;
}

/* rp_read_entry over a parsed READ value set: for a group, entry i < nr is
 * the value, id and lost (0 where absent) read here from the flat body at
 * the entries view; entry nr and a set that is not a group are refused with
 * all three 0, and so are the entries past the view of a copy whose nr was
 * raised (a caller's forged set: ASan sees any read past the body). */
static void check_read_entries(const body2 *B, const uint8_t *flat, const rp_read_values *r)
{
	const uint32_t esz = 8u + (r->has_id ? 8u : 0u) + (r->has_lost ? 8u : 0u);
	const uint64_t n = r->group ? r->nr : 0u;
	const int64_t at = r->group ? view_off(B, r->entries) : -2;

	if (r->group) {
		FZ_CHECK(r->entry_size == esz, "entry size %u, expected %u", r->entry_size, esz);
		FZ_CHECK(n == 0 || at >= 0, "group entries outside the body");
		/* a set not from the parser: nr past its entries */
		rp_read_values forged = *r;
		forged.nr = n + 3u;
		for (uint64_t i = n; i < forged.nr; i++) {
			uint64_t v = 1, id = 1, lost = 1;
			FZ_CHECK(!rp_read_entry(&forged, (uint32_t)i, &v, &id, &lost) && v == 0 && id == 0 &&
			         lost == 0, "entry %u past a forged set's entries not refused", (unsigned)i);
		}
	}
	for (uint64_t i = 0; i <= n; i++) {
		uint64_t v = 1, id = 1, lost = 1;
		const bool ok = rp_read_entry(r, (uint32_t)i, &v, &id, &lost);
		if (i == n) {
			FZ_CHECK(!ok && v == 0 && id == 0 && lost == 0, "read entry %u of %u not refused",
			         (unsigned)i, (unsigned)n);
			break;
		}
		const uint8_t *e = flat + at + i * esz;
		FZ_CHECK(ok, "read entry %u of %u refused", (unsigned)i, (unsigned)n);
		FZ_CHECK(v == fz_le64(e) && id == (r->has_id ? fz_le64(e + 8) : 0u) &&
		         lost == (r->has_lost ? fz_le64(e + (r->has_id ? 16 : 8)) : 0u),
		         "read entry %u differs from the body", (unsigned)i);
	}
}

static void check_string(const body2 *B, rp_span v, const uint8_t *flat, uint32_t field_end)
{
	const int64_t off = view_off(B, v);
	FZ_CHECK(off != -1, "string outside the body");
	if (off < 0)
		return;
	const uint32_t n = v.n0 + v.n1;
	FZ_CHECK(memchr(flat + off, 0, n) == NULL, "NUL inside a string view");
	FZ_CHECK(off + n == field_end || flat[off + n] == 0, "string stops before its NUL");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 31 || size - 31 > 65528)
		return 0;
	uint64_t st = fz_le64(data);
	const uint8_t flags = data[9];
	if (!(flags & 8))
		st &= RP_SAMPLE_KNOWN_LIMIT - 1;
	const uint64_t rf = data[8];
	const uint64_t bst = ((flags & 1) ? RP_BRANCH_HW_INDEX : 0) | ((flags & 2) ? RP_BRANCH_COUNTERS : 0);
	const uint64_t ru = fz_le64(data + 10), ri = fz_le64(data + 18);
	const bool id_all = (flags & 4) != 0;

	rp_sample_layout L;
	const rp_status ls = rp_sample_layout_make(st, rf, bst, ru, ri, id_all, &L);
	const rp_status lexp = st >= RP_SAMPLE_KNOWN_LIMIT ? RP_E_SAMPLE_TYPE_BITS
	                       : rf >= RP_FORMAT_KNOWN_LIMIT ? RP_E_READ_FORMAT_BITS
	                       : ((st & RP_SAMPLE_WEIGHT) && (st & RP_SAMPLE_WEIGHT_STRUCT)) ? RP_E_WEIGHT_BOTH
	                       : RP_OK;
	FZ_CHECK(ls == lexp, "layout status %d, expected %d", (int)ls, (int)lexp);
	if (ls != RP_OK)
		return 0;
	FZ_CHECK(L.regs_user_nr == (uint32_t)__builtin_popcountll(ru), "popcount user");
	FZ_CHECK(L.regs_intr_nr == (uint32_t)__builtin_popcountll(ri), "popcount intr");

	const uint8_t *flat = data + 31;
	const uint32_t len = (uint32_t)(size - 31);
	const uint32_t split = fz_le16(data + 26) % (len + 1);
	uint8_t *a = malloc(split ? split : 1), *b = malloc(len - split ? len - split : 1);
	memcpy(a, flat, split);
	memcpy(b, flat + split, len - split);
	const body2 B = { a, b, split, len - split };
	rp_record rec = { 0, data[28] % 24u, (uint16_t)fz_le16(data + 29), (uint16_t)(8 + len),
	                  { a, b, split, len - split } };
	static rp_event ev;

	const rp_status got = rp_record_parse(&L, &rec, &ev);
	if (rec.type == 0 || rec.type == 23) {
		FZ_CHECK(got == RP_E_UNKNOWN_TYPE, "unknown type: %d", (int)got);
	} else if (rec.type == RP_RECORD_SAMPLE) {
		expect e;
		ref_sample(&L, flat, len, 0, &e);
		if (e.st != RP_OK && (st & RP_SAMPLE_BRANCH_STACK) && bst) {
			expect e2;
			for (unsigned v = 1; v < 4; v++) {
				ref_sample(&L, flat, len, v, &e2);
				if (e2.st == RP_OK) {
					e = e2;
					break;
				}
			}
		}
		FZ_CHECK(got == e.st, "sample status %d, reference %d", (int)got, (int)e.st);
		if (got == RP_OK) {
			check_sample(&L, &B, &ev.sample, &e);
			if (st & RP_SAMPLE_READ)
				check_read_entries(&B, flat, &ev.sample.read);
			/* the standalone entry point agrees */
			static rp_sample s2;
			FZ_CHECK(rp_sample_parse(&L, &rec, &s2) == RP_OK, "rp_sample_parse disagrees");
		}
	} else {
		FZ_CHECK(got == RP_OK || got == RP_E_BODY_SHORT || got == RP_E_LEFTOVER ||
		         got == RP_E_BUILD_ID_SIZE, "record status %d", (int)got);
		if (id_all && len >= L.id_size) {
			ref r = { flat, len, len - L.id_size, true };
			rp_sample_id sid;
			FZ_CHECK(rp_sample_id_parse(&L, rec.body, &sid) == RP_OK, "trailer");
			if (st & RP_SAMPLE_TID) { FZ_CHECK(sid.pid == r32(&r) && sid.tid == r32(&r), "trailer tid"); }
			if (st & RP_SAMPLE_TIME) FZ_CHECK(sid.time == r64(&r), "trailer time");
			if (st & RP_SAMPLE_ID) FZ_CHECK(sid.id == r64(&r), "trailer id");
			if (st & RP_SAMPLE_STREAM_ID) FZ_CHECK(sid.stream_id == r64(&r), "trailer stream");
			if (st & RP_SAMPLE_CPU) { FZ_CHECK(sid.cpu == r32(&r) && sid.res == r32(&r), "trailer cpu"); }
			if (st & RP_SAMPLE_IDENTIFIER) FZ_CHECK(sid.identifier == r64(&r), "trailer identifier");
			FZ_CHECK(r.ok && r.off == len, "trailer size");
		}
		if (id_all && len < L.id_size) {
			rp_sample_id sid;
			FZ_CHECK(got == RP_E_BODY_SHORT, "short trailer: %d", (int)got);
			FZ_CHECK(rp_sample_id_parse(&L, rec.body, &sid) == RP_E_BODY_SHORT, "short trailer parsed");
		}
		static rp_sample s2;
		FZ_CHECK(rp_sample_parse(&L, &rec, &s2) == RP_E_TYPE, "rp_sample_parse on type %u",
		         (unsigned)rec.type);
		if (got == RP_OK) {
			const uint32_t pend = len - (id_all ? L.id_size : 0);
			switch (rec.type) {
			case RP_RECORD_MMAP: check_string(&B, ev.mmap.filename, flat, pend); break;
			case RP_RECORD_MMAP2:
				check_string(&B, ev.mmap2.filename, flat, pend);
				check_inside(&B, ev.mmap2.build_id);
				FZ_CHECK(ev.mmap2.build_id_size <= 20, "build id size");
				break;
			case RP_RECORD_COMM: check_string(&B, ev.comm.comm, flat, pend); break;
			case RP_RECORD_READ: check_read_entries(&B, flat, &ev.read.values); break;
			case RP_RECORD_KSYMBOL: check_string(&B, ev.ksymbol.name, flat, pend); break;
			case RP_RECORD_CGROUP: check_string(&B, ev.cgroup.path, flat, pend); break;
			case RP_RECORD_NAMESPACES:
				check_view(&B, ev.namespaces.entries, 16, (uint32_t)(ev.namespaces.nr * 16));
				FZ_CHECK(16 + ev.namespaces.nr * 16 == pend, "namespaces size");
				break;
			case RP_RECORD_CALLCHAIN_DEFERRED:
				check_view(&B, ev.callchain_deferred.ips, 16, (uint32_t)(ev.callchain_deferred.nr * 8));
				FZ_CHECK(16 + ev.callchain_deferred.nr * 8 == pend, "deferred size");
				break;
			case RP_RECORD_TEXT_POKE: {
				const uint32_t used = 12u + ev.text_poke.old_len + ev.text_poke.new_len;
				check_view(&B, ev.text_poke.old_bytes, 12, ev.text_poke.old_len);
				check_view(&B, ev.text_poke.new_bytes, 12u + ev.text_poke.old_len, ev.text_poke.new_len);
				FZ_CHECK(used <= pend && pend - used < 8, "text_poke padding");
				break;
			}
			case RP_RECORD_BPF_EVENT: check_view(&B, ev.bpf_event.tag, 8, 8); FZ_CHECK(pend == 16, "bpf size"); break;
			case RP_RECORD_LOST: FZ_CHECK(pend == 16 && ev.lost.id == fz_le64(flat), "lost"); break;
			case RP_RECORD_EXIT: case RP_RECORD_FORK: case RP_RECORD_THROTTLE:
			case RP_RECORD_UNTHROTTLE: case RP_RECORD_AUX:
				FZ_CHECK(pend == 24, "fixed 24"); break;
			case RP_RECORD_ITRACE_START: case RP_RECORD_LOST_SAMPLES: case RP_RECORD_SWITCH_CPU_WIDE:
			case RP_RECORD_AUX_OUTPUT_HW_ID:
				FZ_CHECK(pend == 8, "fixed 8"); break;
			case RP_RECORD_SWITCH: FZ_CHECK(pend == 0, "switch"); break;
			default: break;
			}
		}
	}
	free(a);
	free(b);
	return 0;
}
