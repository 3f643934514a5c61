/* parsers-integration: records produced by the running kernel, decoded by
 * the ring walk and rp_record_parse.
 *
 * Ring A: a cpu-clock sampling event on this process (leader of a group with
 * a task-clock counter) with every sample_type bit a PMU-less machine allows,
 * sample_id_all, and side-band: mmap2 + build id, comm, task, context switch,
 * namespaces, ksymbol, bpf_event, cgroup.  Ring B: a CPU-wide dummy event
 * with plain MMAP records (mmap_data), task and switch records, emptied by a
 * thread while the workload runs (copier).  Ring C: a BPF-output event (RAW) filled by a
 * hand-assembled BPF program run with BPF_PROG_TEST_RUN.  Every record must
 * decode with RP_OK and consume exactly its size; values are checked against
 * what the test knows (pid, tid, ids, period, monotonic time, names).
 * Raw syscalls only; results go to $RP_RESULTS (PASS/FAIL/SKIP lines). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rp_records.h"
#include "rp_ring.h"
#include "rp_sample.h"

static FILE *results;
static int failures;

static void result(const char *kind, const char *name, const char *fmt, ...)
{
	char why[512] = "";
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, sizeof why, fmt, ap);
		va_end(ap);
	}
	printf("%s %s%s%s\n", kind, name, *why ? ": " : "", why);
	if (results)
		fprintf(results, "%s %s%s%s\n", kind, name, *why ? ": " : "", why);
	if (!strcmp(kind, "FAIL"))
		failures++;
}

#define CHECK(name, cond, ...) \
	do { if (cond) result("PASS", name, NULL); else result("FAIL", name, __VA_ARGS__); } while (0)

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

typedef struct ring {
	int fd;
	void *base;
	size_t len;
	struct perf_event_mmap_page *pg;
	rp_ring r;
} ring;

static int ring_map(ring *rg, int fd, unsigned pages)
{
	const size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	rg->fd = fd;
	rg->len = ps * (1 + pages);
	rg->base = mmap(NULL, rg->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rg->base == MAP_FAILED)
		return -errno;
	rg->pg = rg->base;
	rg->r.data = (const uint8_t *)rg->base + rg->pg->data_offset;
	rg->r.size = rg->pg->data_size;
	return 0;
}

typedef struct stats {
	unsigned by_type[32];
	unsigned errors;
	unsigned samples, sample_pid_ok, sample_time_ok, sample_read_ok, sample_id_ok, sample_cpu_ok;
	unsigned sample_period_ok, callchain_ctx_ok, regs_ok, stack_ok, page_size_ok;
	unsigned trailer_ours, trailer_total;
	unsigned comm_named, fork_child, exit_child, mmap2_named, mmap2_build_id, mmap_named;
	unsigned ksym_bpf, bpf_load, cgroup_named, switches, ns_ok, raw_ok;
	uint64_t last_time;
	uint64_t id_leader, id_sibling;
	pid_t pid, child;
	char first_error[256];
} stats;

static bool span_eq_str(rp_span s, const char *str)
{
	char buf[4096];
	uint32_t n = rp_span_copy(s, (uint8_t *)buf, sizeof buf - 1);
	buf[n] = 0;
	return n == s.n0 + s.n1 && strcmp(buf, str) == 0;
}

static bool span_has(rp_span s, const char *needle)
{
	char buf[4096];
	uint32_t n = rp_span_copy(s, (uint8_t *)buf, sizeof buf - 1);
	buf[n] = 0;
	return strstr(buf, needle) != NULL;
}

static void check_sample(const rp_sample *s, stats *st, const rp_sample_layout *L)
{
	st->samples++;
	if (s->pid == (uint32_t)st->pid && s->tid == (uint32_t)st->pid)
		st->sample_pid_ok++;
	if (s->time >= st->last_time)
		st->sample_time_ok++;
	st->last_time = s->time;
	if (s->identifier == st->id_leader && s->id == st->id_leader && s->stream_id == st->id_leader)
		st->sample_id_ok++;
	if (s->cpu < (uint32_t)sysconf(_SC_NPROCESSORS_CONF) && s->cpu_res == 0)
		st->sample_cpu_ok++;
	if (s->period == 1000000)
		st->sample_period_ok++;
	uint64_t v0, i0, l0, v1, i1, l1;
	if (s->read.group && s->read.nr == 2 && rp_read_entry(&s->read, 0, &v0, &i0, &l0) &&
	    rp_read_entry(&s->read, 1, &v1, &i1, &l1) && i0 == st->id_leader && i1 == st->id_sibling &&
	    s->read.time_enabled >= s->read.time_running && l0 == 0)
		st->sample_read_ok++;
	uint64_t ip0;
	if (s->callchain_nr > 0 && rp_span_get_u64(s->callchain, 0, &ip0) && rp_callchain_is_context(ip0))
		st->callchain_ctx_ok++;
	if ((L->sample_type & RP_SAMPLE_REGS_USER) &&
	    (s->regs_user_abi == 0 || (s->regs_user_abi == 2 &&
	                               s->regs_user.n0 + s->regs_user.n1 == 8 * L->regs_user_nr)))
		st->regs_ok++;
	if ((s->stack_user_size == 0 && !s->has_dyn_size) ||
	    (s->stack_user_size == 512 && s->has_dyn_size && s->stack_user_dyn_size <= 512))
		st->stack_ok++;
	if ((s->code_page_size == 0 || (s->code_page_size & (s->code_page_size - 1)) == 0) &&
	    (s->data_page_size == 0 || (s->data_page_size & (s->data_page_size - 1)) == 0))
		st->page_size_ok++;
}

static void check_event(const rp_event *e, stats *st)
{
	if (e->has_sample_id) {
		st->trailer_total++;
		if (e->sample_id.pid == (uint32_t)st->pid || e->sample_id.pid == (uint32_t)st->child ||
		    e->sample_id.pid == (uint32_t)-1 || e->sample_id.pid == 0)
			st->trailer_ours++;
	}
	switch (e->type) {
	case RP_RECORD_COMM:
		if (e->comm.pid == (uint32_t)st->pid && span_eq_str(e->comm.comm, "rp-parsers"))
			st->comm_named++;
		break;
	case RP_RECORD_FORK:
		if (e->task.pid == (uint32_t)st->child && e->task.ppid == (uint32_t)st->pid)
			st->fork_child++;
		break;
	case RP_RECORD_EXIT:
		if (e->task.pid == (uint32_t)st->child)
			st->exit_child++;
		break;
	case RP_RECORD_MMAP2:
		if (e->mmap2.pid == (uint32_t)st->pid && span_has(e->mmap2.filename, "/"))
			st->mmap2_named++;
		if (e->mmap2.has_build_id && e->mmap2.build_id_size > 0)
			st->mmap2_build_id++;
		break;
	case RP_RECORD_MMAP:
		if (e->mmap.pid == (uint32_t)st->pid && span_has(e->mmap.filename, "rp_parsers_map"))
			st->mmap_named++;
		break;
	case RP_RECORD_KSYMBOL:
		if (e->ksymbol.ksym_type == 1 /* BPF */ && span_has(e->ksymbol.name, "bpf_prog_"))
			st->ksym_bpf++;
		break;
	case RP_RECORD_BPF_EVENT:
		if (e->bpf_event.type == 1 /* PROG_LOAD */ && e->bpf_event.id > 0)
			st->bpf_load++;
		break;
	case RP_RECORD_CGROUP:
		if (span_has(e->cgroup.path, "rp_parsers_cg"))
			st->cgroup_named++;
		break;
	case RP_RECORD_SWITCH:
	case RP_RECORD_SWITCH_CPU_WIDE:
		st->switches++;
		break;
	case RP_RECORD_NAMESPACES:
		if (e->namespaces.nr >= 1 && e->namespaces.entries.n0 + e->namespaces.entries.n1 == 16 * e->namespaces.nr)
			st->ns_ok++;
		break;
	default:
		break;
	}
}

/* Drain a ring completely; every record must parse. */
static void drain(ring *rg, const rp_sample_layout *L, stats *st)
{
	uint64_t head = __atomic_load_n(&rg->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = rg->pg->data_tail;
	static rp_event ev;
	for (;;) {
		rp_record rec;
		rp_status s = rp_ring_next(&rg->r, head, &tail, &rec);
		if (s == RP_EMPTY)
			break;
		if (s != RP_OK) {
			st->errors++;
			snprintf(st->first_error, sizeof st->first_error, "ring walk: %s", rp_status_text(s));
			break;
		}
		if (rec.type < 32)
			st->by_type[rec.type]++;
		s = rp_record_parse(L, &rec, &ev);
		if (s != RP_OK) {
			if (!st->errors)
				snprintf(st->first_error, sizeof st->first_error, "type %u size %u: %s",
				         rec.type, rec.size, rp_status_text(s));
			st->errors++;
			continue;
		}
		if (rec.type == RP_RECORD_SAMPLE)
			check_sample(&ev.sample, st, L);
		check_event(&ev, st);
	}
	__atomic_store_n(&rg->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Ring B is CPU-wide: on a busy machine the other tasks of CPU 0 (a shell
 * loop forks thousands a second) fill any ring before the workload ends,
 * and the kernel then drops the records the checks look for.  A thread on
 * another CPU moves the records out as they come, whole, into a linear copy
 * that drain() decodes at the end; it stops at anything rp_ring_next
 * refuses, which the final drain of the ring itself then reports. */
typedef struct copier {
	ring *src;
	uint8_t *buf;
	uint64_t cap; /* a power of two: the copy is a ring that never wraps */
	uint64_t used;
	int stuck;    /* 1: full, or a record rp_ring_next refused */
	int stop;
	struct perf_event_mmap_page pg;
} copier;

static void copy_out(copier *c)
{
	uint64_t head = __atomic_load_n(&c->src->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = c->src->pg->data_tail;
	rp_record rec;

	while (!c->stuck) {
		const uint64_t at = tail;
		rp_status s = rp_ring_next(&c->src->r, head, &tail, &rec);
		if (s == RP_EMPTY)
			break;
		if (s != RP_OK || c->used + rec.size > c->cap) {
			tail = at;
			c->stuck = 1;
			break;
		}
		/* the header never straddles the end of the data area */
		memcpy(c->buf + c->used, c->src->r.data + at % c->src->r.size, 8);
		rp_span_copy(rec.body, c->buf + c->used + 8, rec.size - 8u);
		c->used += rec.size;
	}
	__atomic_store_n(&c->src->pg->data_tail, tail, __ATOMIC_RELEASE);
}

static void *copier_main(void *p)
{
	copier *c = p;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof set, &set); /* one CPU only: it shares CPU 0 */
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		copy_out(c);
		usleep(200);
	}
	copy_out(c);
	return NULL;
}

/* The copy as a ring for drain(). */
static void copier_ring(copier *c, ring *out)
{
	memset(out, 0, sizeof *out);
	c->pg.data_head = c->used;
	c->pg.data_tail = 0;
	out->pg = &c->pg;
	out->r.data = c->buf;
	out->r.size = c->cap;
}

static volatile uint64_t sink;

static void spin_ms(unsigned ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0); /* CPU time: the sampling clock */
	do {
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i * 7;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* A 2-instruction socket filter (r0 = 0; exit): loading it makes the kernel
 * emit KSYMBOL and BPF_EVENT records. */
static int load_tiny_prog(void)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uintptr_t)"GPL";
	return (int)syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof a);
}

/* Ring C: RAW samples from bpf_perf_event_output through a
 * PERF_EVENT_ARRAY, program run with BPF_PROG_TEST_RUN on CPU 0. */
static void raw_phase(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_BPF_OUTPUT;
	a.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	a.sample_period = 1;
	a.wakeup_events = 1;
	int fd = perf_open(&a, -1, 0, -1);
	if (fd < 0) {
		result("SKIP", "parsers-kernel/raw", "BPF output event refused: %s", strerror(errno));
		return;
	}
	union bpf_attr m;
	memset(&m, 0, sizeof m);
	m.map_type = BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	m.key_size = 4;
	m.value_size = 4;
	m.max_entries = 1;
	int map = (int)syscall(SYS_bpf, BPF_MAP_CREATE, &m, sizeof m);
	if (map < 0) {
		result("SKIP", "parsers-kernel/raw", "bpf map refused: %s", strerror(errno));
		close(fd);
		return;
	}
	uint32_t key = 0, val = (uint32_t)fd;
	memset(&m, 0, sizeof m);
	m.map_fd = (uint32_t)map;
	m.key = (uintptr_t)&key;
	m.value = (uintptr_t)&val;
	if (syscall(SYS_bpf, BPF_MAP_UPDATE_ELEM, &m, sizeof m) != 0) {
		result("FAIL", "parsers-kernel/raw", "map update: %s", strerror(errno));
		close(map);
		close(fd);
		return;
	}
	/* r6 = r1; *(u64 *)(r10 - 8) = 0x1122334455667788 (via r1);
	 * r1 = r6; r2 = map; r3 = 0 (index 0); r4 = r10 - 8; r5 = 5 (odd size: padding);
	 * call perf_event_output; r0 = 0; exit */
	struct bpf_insn p[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .imm = 0x55667788 },
		{ .imm = 0x11223344 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 10, .src_reg = 1, .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 6 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 2, .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
		{ .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 4, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 4, .imm = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 5, .imm = 5 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_perf_event_output },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr pa;
	memset(&pa, 0, sizeof pa);
	pa.prog_type = BPF_PROG_TYPE_SCHED_CLS;
	pa.insns = (uintptr_t)p;
	pa.insn_cnt = sizeof p / sizeof p[0];
	pa.license = (uintptr_t)"GPL";
	int prog = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &pa, sizeof pa);
	if (prog < 0) {
		result("SKIP", "parsers-kernel/raw", "BPF program refused: %s", strerror(errno));
		close(map);
		close(fd);
		return;
	}
	ring rg;
	if (ring_map(&rg, fd, 4) != 0) {
		result("FAIL", "parsers-kernel/raw", "mmap: %s", strerror(errno));
		return;
	}
	uint8_t pkt[64];
	memset(pkt, 0, sizeof pkt);
	union bpf_attr t;
	memset(&t, 0, sizeof t);
	t.test.prog_fd = (uint32_t)prog;
	t.test.data_in = (uintptr_t)pkt;
	t.test.data_size_in = sizeof pkt;
	t.test.repeat = 3;
	if (syscall(SYS_bpf, BPF_PROG_TEST_RUN, &t, sizeof t) != 0) {
		result("SKIP", "parsers-kernel/raw", "BPF_PROG_TEST_RUN refused: %s", strerror(errno));
		return;
	}
	rp_sample_layout L;
	rp_sample_layout_make(a.sample_type, 0, 0, 0, 0, false, &L);
	uint64_t head = __atomic_load_n(&rg.pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = rg.pg->data_tail;
	unsigned n = 0, ok = 0, errs = 0;
	rp_record rec;
	while (rp_ring_next(&rg.r, head, &tail, &rec) == RP_OK) {
		rp_sample s;
		n++;
		if (rp_sample_parse(&L, &rec, &s) != RP_OK) {
			errs++;
			continue;
		}
		uint8_t payload[16];
		uint32_t got = rp_span_copy(s.raw, payload, sizeof payload);
		const uint64_t want = 0x1122334455667788ull;
		/* 5 bytes asked: raw size round_up(5 + 4, 8) - 4 = 12, padding included */
		if (s.raw_size == 12 && got == 12 && memcmp(payload, &want, 5) == 0 && s.cpu == 0)
			ok++;
	}
	CHECK("parsers-kernel/raw-decodes", n == 3 && errs == 0, "%u records, %u parse errors", n, errs);
	CHECK("parsers-kernel/raw-payload-and-padding", ok == 3, "%u of %u RAW samples had size 12 and the payload", ok, n);
	munmap(rg.base, rg.len);
	close(prog);
	close(map);
	close(fd);
}

/* Ring D: a 2-page ring too small for the samples it gets, so the kernel
 * drops some and reports them with a LOST record once there is room again;
 * a 10 us period also invites THROTTLE/UNTHROTTLE. */
static void lost_phase(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 10000;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ID;
	a.sample_stack_user = 3000;
	a.sample_id_all = 1;
	a.disabled = 1;
	int fd = perf_open(&a, 0, -1, -1);
	ring rg;
	if (fd < 0 || ring_map(&rg, fd, 2) != 0) {
		result("SKIP", "parsers-kernel/lost", "event refused: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	rp_sample_layout L;
	rp_sample_layout_make(a.sample_type, 0, 0, 0, 0, true, &L);
	stats st;
	memset(&st, 0, sizeof st);
	st.pid = getpid();
	uint64_t lost = 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int round = 0; round < 4; round++) {
		spin_ms(5);
		uint64_t head = __atomic_load_n(&rg.pg->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = rg.pg->data_tail;
		static rp_event ev;
		rp_record rec;
		while (rp_ring_next(&rg.r, head, &tail, &rec) == RP_OK) {
			if (rec.type < 32)
				st.by_type[rec.type]++;
			rp_status s = rp_record_parse(&L, &rec, &ev);
			if (s != RP_OK) {
				if (!st.errors)
					snprintf(st.first_error, sizeof st.first_error, "type %u size %u: %s",
					         rec.type, rec.size, rp_status_text(s));
				st.errors++;
			} else if (rec.type == RP_RECORD_LOST) {
				lost += ev.lost.lost;
			}
		}
		__atomic_store_n(&rg.pg->data_tail, tail, __ATOMIC_RELEASE);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	printf("# ring D:");
	for (int i = 0; i < 32; i++)
		if (st.by_type[i])
			printf(" type%d=%u", i, st.by_type[i]);
	printf(" (lost %llu)\n", (unsigned long long)lost);
	CHECK("parsers-kernel/lost-ring-decodes", st.errors == 0, "%u errors, first: %s", st.errors, st.first_error);
	if (st.by_type[RP_RECORD_LOST])
		CHECK("parsers-kernel/lost", lost > 0, "LOST records count 0");
	else
		result("SKIP", "parsers-kernel/lost", "the kernel dropped nothing this run");
	if (st.by_type[RP_RECORD_THROTTLE] || st.by_type[RP_RECORD_UNTHROTTLE])
		result("PASS", "parsers-kernel/throttle", NULL);
	else
		result("SKIP", "parsers-kernel/throttle", "no THROTTLE/UNTHROTTLE this run (covered by unit tests)");
	munmap(rg.base, rg.len);
	close(fd);
}

int main(void)
{
	const char *rp = getenv("RP_RESULTS");
	results = rp ? fopen(rp, "a") : NULL;
	stats st;
	memset(&st, 0, sizeof st);
	st.pid = getpid();
	/* everything runs on CPU 0, where ring B watches every task */
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		result("SKIP", "parsers-kernel", "cannot pin to CPU 0: %s", strerror(errno));
		return 0;
	}
	prctl(PR_SET_NAME, "rp-parsers-pre");

	/* Wanted fields, dropped from the end of `optional` until the kernel
	 * accepts the event (a PMU-less machine refuses some). */
	uint64_t sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
	                       PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
	                       PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
	                       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_IDENTIFIER;
	const struct { uint64_t bit; const char *name; } optional[] = {
		{ PERF_SAMPLE_CGROUP, "CGROUP" }, { PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
		{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
		{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
		{ PERF_SAMPLE_TRANSACTION, "TRANSACTION" }, { PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
	};
	const size_t nopt = sizeof optional / sizeof optional[0];
	const uint64_t read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
	                             PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST;
	const uint64_t regs_mask = 0x1ff; /* AX .. IP on x86-64 */

	struct perf_event_attr a;
	int lead = -1;
	size_t keep = nopt;
	for (;;) {
		uint64_t t = sample_type;
		for (size_t i = 0; i < keep; i++)
			t |= optional[i].bit;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.sample_period = 1000000;
		a.sample_type = t;
		a.read_format = read_format;
		a.sample_regs_user = regs_mask;
		a.sample_regs_intr = regs_mask;
		a.sample_stack_user = 512;
		a.disabled = 1;
		a.sample_id_all = 1;
		a.mmap = 1;
		a.mmap2 = 1;
		a.build_id = 1;
		a.comm = 1;
		a.comm_exec = 1;
		a.task = 1;
		a.context_switch = 1;
		a.namespaces = 1;
		a.ksymbol = 1;
		a.bpf_event = 1;
		a.cgroup = 1;
		lead = perf_open(&a, 0, -1, -1);
		if (lead >= 0 || keep == 0)
			break;
		if (errno != EINVAL && errno != EOPNOTSUPP && errno != EACCES)
			break;
		keep--;
	}
	if (lead < 0) {
		result("SKIP", "parsers-kernel", "perf_event_open(cpu-clock) refused: %s", strerror(errno));
		return 0;
	}
	for (size_t i = keep; i < nopt; i++)
		printf("# sample_type %s refused by this kernel/machine: not produced\n", optional[i].name);
	printf("# sample_type 0x%llx, %zu of %zu optional fields kept\n", (unsigned long long)a.sample_type, keep, nopt);

	struct perf_event_attr b;
	memset(&b, 0, sizeof b);
	b.size = sizeof b;
	b.type = PERF_TYPE_SOFTWARE;
	b.config = PERF_COUNT_SW_TASK_CLOCK;
	b.read_format = read_format;
	int sib = perf_open(&b, 0, -1, lead);
	ring ra;
	int rc = ring_map(&ra, lead, 16);
	if (sib < 0 || rc != 0) {
		result("FAIL", "parsers-kernel/setup", "sibling %d, mmap %d (%s)", sib, rc, strerror(errno));
		return 1;
	}
	ioctl(lead, PERF_EVENT_IOC_ID, &st.id_leader);
	ioctl(sib, PERF_EVENT_IOC_ID, &st.id_sibling);

	/* ring B: plain MMAP records of data mappings */
	struct perf_event_attr d;
	memset(&d, 0, sizeof d);
	d.size = sizeof d;
	d.type = PERF_TYPE_SOFTWARE;
	d.config = PERF_COUNT_SW_DUMMY;
	d.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	d.sample_id_all = 1;
	d.mmap = 1;
	d.mmap_data = 1;
	d.task = 1;
	d.context_switch = 1;
	d.disabled = 1;
	int dfd = perf_open(&d, -1, 0, -1);
	ring rb;
	/* CPU-wide: every context switch on CPU 0 lands here, thousands a
	 * second on a busy machine; 2 MiB keeps a full ring (and the MMAP and
	 * EXIT records it would drop) out of reach */
	if (dfd < 0 || ring_map(&rb, dfd, 512) != 0) {
		result("FAIL", "parsers-kernel/setup-dummy", "%s", strerror(errno));
		return 1;
	}

	rp_sample_layout LA, LB;
	rc = rp_sample_layout_make(a.sample_type, a.read_format, 0, a.sample_regs_user, a.sample_regs_intr, true, &LA);
	CHECK("parsers-kernel/layout-a", rc == RP_OK, "%s", rp_status_text(rc));
	rc = rp_sample_layout_make(d.sample_type, 0, 0, 0, 0, true, &LB);
	CHECK("parsers-kernel/layout-b", rc == RP_OK, "%s", rp_status_text(rc));

	copier cb = { .src = &rb, .cap = 64u << 20 };
	pthread_t cb_thread;
	cb.buf = malloc(cb.cap);
	if (!cb.buf || pthread_create(&cb_thread, NULL, copier_main, &cb) != 0) {
		result("FAIL", "parsers-kernel/setup-copier", "%s", cb.buf ? "pthread_create" : "malloc");
		return 1;
	}
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	ioctl(dfd, PERF_EVENT_IOC_ENABLE, 0);

	/* the workload: every side-band record kind we can cause */
	prctl(PR_SET_NAME, "rp-parsers");
	spin_ms(30);
	char path[64];
	snprintf(path, sizeof path, "/tmp/rp_parsers_map_%d", (int)st.pid);
	int mf = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (mf >= 0 && ftruncate(mf, 8192) == 0) {
		void *m = mmap(NULL, 8192, PROT_READ, MAP_SHARED, mf, 0);
		if (m != MAP_FAILED)
			munmap(m, 8192);
	}
	if (mf >= 0)
		close(mf);
	unlink(path);
	int ef = open("/proc/self/exe", O_RDONLY); /* an exec mapping: MMAP2 with build id */
	if (ef >= 0) {
		void *x = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, ef, 0);
		if (x != MAP_FAILED)
			munmap(x, 4096);
		close(ef);
	}
	st.child = fork();
	if (st.child == 0) {
		usleep(1000);
		_exit(0);
	}
	waitpid(st.child, NULL, 0);
	int prog = load_tiny_prog();
	char cg[128];
	/* a cgroup2 directory: the unified mount of a hybrid setup, or the root */
	int cg_rc = -1;
	if (access("/sys/fs/cgroup/unified/cgroup.controllers", F_OK) == 0)
		snprintf(cg, sizeof cg, "/sys/fs/cgroup/unified/rp_parsers_cg_%d", (int)st.pid);
	else
		snprintf(cg, sizeof cg, "/sys/fs/cgroup/rp_parsers_cg_%d", (int)st.pid);
	if (access("/sys/fs/cgroup/unified/cgroup.controllers", F_OK) == 0 ||
	    access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0)
		cg_rc = mkdir(cg, 0755);
	else
		errno = ENOENT;
	for (int i = 0; i < 5; i++)
		usleep(500);
	spin_ms(20);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ioctl(dfd, PERF_EVENT_IOC_DISABLE, 0);
	if (cg_rc == 0)
		rmdir(cg);

	__atomic_store_n(&cb.stop, 1, __ATOMIC_RELEASE);
	pthread_join(cb_thread, NULL);
	const unsigned long long fill_b = __atomic_load_n(&rb.pg->data_head, __ATOMIC_ACQUIRE) - rb.pg->data_tail;
	drain(&ra, &LA, &st);
	stats sb = st;
	memset(sb.by_type, 0, sizeof sb.by_type);
	sb.errors = 0;
	sb.first_error[0] = 0;
	ring copy;
	copier_ring(&cb, &copy);
	drain(&copy, &LB, &sb);
	drain(&rb, &LB, &sb); /* what the copier left: a record it refused */
	free(cb.buf);

	unsigned total = 0;
	for (int i = 0; i < 32; i++)
		total += st.by_type[i];
	printf("# ring A: %u records:", total);
	for (int i = 0; i < 32; i++)
		if (st.by_type[i])
			printf(" type%d=%u", i, st.by_type[i]);
	printf("\n# ring B:");
	for (int i = 0; i < 32; i++)
		if (sb.by_type[i])
			printf(" type%d=%u", i, sb.by_type[i]);
	printf("\n");

	CHECK("parsers-kernel/every-record-decodes", st.errors == 0 && total > 0, "%u errors, first: %s", st.errors, st.first_error);
	CHECK("parsers-kernel/dummy-records-decode", sb.errors == 0, "%u errors, first: %s", sb.errors, sb.first_error);
	CHECK("parsers-kernel/samples", st.samples >= 5, "%u samples", st.samples);
	CHECK("parsers-kernel/sample-pid-tid", st.sample_pid_ok == st.samples, "%u of %u", st.sample_pid_ok, st.samples);
	CHECK("parsers-kernel/sample-time-monotonic", st.sample_time_ok == st.samples, "%u of %u", st.sample_time_ok, st.samples);
	CHECK("parsers-kernel/sample-ids", st.sample_id_ok == st.samples, "%u of %u", st.sample_id_ok, st.samples);
	CHECK("parsers-kernel/sample-cpu", st.sample_cpu_ok == st.samples, "%u of %u", st.sample_cpu_ok, st.samples);
	CHECK("parsers-kernel/sample-period", st.sample_period_ok == st.samples, "%u of %u", st.sample_period_ok, st.samples);
	CHECK("parsers-kernel/sample-group-read", st.sample_read_ok == st.samples, "%u of %u", st.sample_read_ok, st.samples);
	CHECK("parsers-kernel/sample-callchain-context", st.callchain_ctx_ok == st.samples, "%u of %u", st.callchain_ctx_ok, st.samples);
	CHECK("parsers-kernel/sample-regs-user", st.regs_ok == st.samples, "%u of %u", st.regs_ok, st.samples);
	CHECK("parsers-kernel/sample-stack-user", st.stack_ok == st.samples, "%u of %u", st.stack_ok, st.samples);
	CHECK("parsers-kernel/sample-page-sizes", st.page_size_ok == st.samples, "%u of %u", st.page_size_ok, st.samples);
	CHECK("parsers-kernel/trailer-pids", st.trailer_ours == st.trailer_total && st.trailer_total > 0,
	      "%u of %u", st.trailer_ours, st.trailer_total);
	CHECK("parsers-kernel/comm", st.comm_named >= 1, "no COMM 'rp-parsers' for pid %d", (int)st.pid);
	CHECK("parsers-kernel/fork", st.fork_child >= 1 && sb.fork_child >= 1, "fork A %u B %u", st.fork_child, sb.fork_child);
	CHECK("parsers-kernel/exit", sb.exit_child >= 1,
	      "no EXIT of the child in the CPU-wide ring (%llu of %llu bytes left in it, %llu copied out)",
	      fill_b, (unsigned long long)rb.r.size, (unsigned long long)cb.used);
	CHECK("parsers-kernel/switch-cpu-wide", sb.by_type[RP_RECORD_SWITCH_CPU_WIDE] >= 1, "no SWITCH_CPU_WIDE record");
	CHECK("parsers-kernel/mmap2", st.mmap2_named >= 1, "no MMAP2 with a path");
	if (st.mmap2_build_id)
		result("PASS", "parsers-kernel/mmap2-build-id", NULL);
	else
		result("SKIP", "parsers-kernel/mmap2-build-id", "no MMAP2 carried a build id (file without one?)");
	CHECK("parsers-kernel/mmap-data", sb.mmap_named >= 1,
	      "no MMAP record for %s (ring B: %llu of %llu bytes left in it, %llu copied out)", path,
	      fill_b, (unsigned long long)rb.r.size, (unsigned long long)cb.used);
	CHECK("parsers-kernel/switch", st.switches >= 1, "no SWITCH record");
	CHECK("parsers-kernel/namespaces", st.ns_ok >= 1, "no NAMESPACES record with entries");
	if (prog >= 0) {
		CHECK("parsers-kernel/ksymbol", st.ksym_bpf >= 1, "no KSYMBOL for the loaded program");
		CHECK("parsers-kernel/bpf-event", st.bpf_load >= 1, "no BPF_EVENT PROG_LOAD");
		close(prog);
	} else {
		result("SKIP", "parsers-kernel/ksymbol", "BPF_PROG_LOAD refused: %s", strerror(errno));
	}
	if (cg_rc == 0)
		CHECK("parsers-kernel/cgroup", st.cgroup_named >= 1, "no CGROUP record for %s", cg);
	else
		result("SKIP", "parsers-kernel/cgroup", "cannot create a cgroup: %s", strerror(errno));
	raw_phase();
	lost_phase();
	if (results)
		fclose(results);
	return failures ? 1 : 0;
}
