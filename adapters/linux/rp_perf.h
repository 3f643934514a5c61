/* perf_event_open: attribute builder, open, every perf ioctl, counting reads.
 *
 * All functions return 0 on success and a negative code on failure (-errno
 * or RP_E_*; see rp_error.h).  Nothing here prints or allocates.
 */
#ifndef RP_PERF_H
#define RP_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- attribute builder ------------------------------------------------
 * Each rp_attr_init_* zeroes *attr, sets type/config and attr->size =
 * sizeof(struct perf_event_attr).  The setters change one aspect and may be
 * called in any order; the attr stays a plain struct the caller may edit. */

void rp_attr_init(struct perf_event_attr *attr, uint32_t type, uint64_t config);
void rp_attr_init_hw(struct perf_event_attr *attr, uint64_t hw_config);  /* PERF_COUNT_HW_* */
void rp_attr_init_sw(struct perf_event_attr *attr, uint64_t sw_config);  /* PERF_COUNT_SW_* */
void rp_attr_init_raw(struct perf_event_attr *attr, uint64_t raw_config); /* PMU-specific */
/* A tracepoint by id (from tracefs events/<category>/<name>/id). */
void rp_attr_init_tracepoint_id(struct perf_event_attr *attr, uint64_t id);
/* A tracepoint by name: reads the id from tracefs (/sys/kernel/tracing, then
 * /sys/kernel/debug/tracing).  -ENOENT if unknown, -EINVAL on bad names. */
int rp_attr_init_tracepoint(struct perf_event_attr *attr, const char *category,
                            const char *name);
/* The BPF-output event for bpf_perf_event_output: software BPF_OUTPUT,
 * sample_type RAW, period 1, wakeup after every record (docs/abi.md). */
void rp_attr_init_bpf_output(struct perf_event_attr *attr);

/* Sample every `period` events, or `hz` times per second (freq=1).
 * -EINVAL for 0. */
int rp_attr_set_period(struct perf_event_attr *attr, uint64_t period);
int rp_attr_set_freq(struct perf_event_attr *attr, uint64_t hz);

/* Boolean attr bits, OR-ed together for rp_attr_set_flags/clear_flags. */
enum rp_attr_flag {
	RP_ATTR_DISABLED = 1u << 0,
	RP_ATTR_INHERIT = 1u << 1,
	RP_ATTR_PINNED = 1u << 2,
	RP_ATTR_EXCLUSIVE = 1u << 3,
	RP_ATTR_EXCLUDE_USER = 1u << 4,
	RP_ATTR_EXCLUDE_KERNEL = 1u << 5,
	RP_ATTR_EXCLUDE_HV = 1u << 6,
	RP_ATTR_EXCLUDE_IDLE = 1u << 7,
	RP_ATTR_SAMPLE_ID_ALL = 1u << 8,
	RP_ATTR_WRITE_BACKWARD = 1u << 9,
	RP_ATTR_ENABLE_ON_EXEC = 1u << 10,
	RP_ATTR_INHERIT_STAT = 1u << 11,
};
void rp_attr_set_flags(struct perf_event_attr *attr, unsigned flags);
void rp_attr_clear_flags(struct perf_event_attr *attr, unsigned flags);

/* PERF_SAMPLE_* and PERF_FORMAT_* masks. */
void rp_attr_set_sample_type(struct perf_event_attr *attr, uint64_t sample_type);
void rp_attr_set_read_format(struct perf_event_attr *attr, uint64_t read_format);
/* Wake a poller after n records (watermark=0) or after n bytes (watermark=1).
 * n = 0 means the kernel default (half the buffer). */
void rp_attr_set_wakeup_events(struct perf_event_attr *attr, uint32_t n);
void rp_attr_set_wakeup_bytes(struct perf_event_attr *attr, uint32_t bytes);
/* Timestamps from this clock (CLOCK_MONOTONIC, ...): sets use_clockid. */
void rp_attr_set_clockid(struct perf_event_attr *attr, int clockid);

/* ---- open ----------------------------------------------------------------
 * perf_event_open(2) through syscall(2).  attr->size 0 is replaced by
 * sizeof(struct perf_event_attr); a larger size is passed through (the
 * caller then owns that many readable bytes at attr).
 * On success *fd is the new event fd (O_CLOEXEC is always added).
 * RP_E_ATTR_SIZE: the kernel rejected attr->size (E2BIG); *kernel_size
 * (if not NULL) holds the size the kernel wrote back into attr->size. */
int rp_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                 unsigned long flags, int *fd, uint32_t *kernel_size);

/* ---- ioctls (one wrapper each) ------------------------------------------
 * `group` applies the operation to the whole group (PERF_IOC_FLAG_GROUP). */
int rp_perf_enable(int fd, bool group);
int rp_perf_disable(int fd, bool group);
int rp_perf_refresh(int fd, int count);      /* overflow count for signal mode */
int rp_perf_reset(int fd, bool group);
int rp_perf_set_period(int fd, uint64_t period);
int rp_perf_set_output(int fd, int target_fd); /* target -1: stop redirect */
int rp_perf_set_filter(int fd, const char *filter);
int rp_perf_id(int fd, uint64_t *id);
int rp_perf_set_bpf(int fd, int prog_fd);
int rp_perf_pause_output(int fd, bool pause);
/* Ids of BPF programs attached to a tracepoint event: up to max ids are
 * stored, *count receives the total attached (may exceed max). */
int rp_perf_query_bpf(int fd, uint32_t *ids, uint32_t max, uint32_t *count);
int rp_perf_modify_attributes(int fd, struct perf_event_attr *attr);

/* ---- counting mode ------------------------------------------------------ */
typedef struct rp_count {
	uint64_t value;
	uint64_t time_enabled; /* 0 unless PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running; /* 0 unless PERF_FORMAT_TOTAL_TIME_RUNNING */
	uint64_t id;           /* 0 unless PERF_FORMAT_ID */
	uint64_t lost;         /* 0 unless PERF_FORMAT_LOST */
} rp_count;

/* read(2) one counter opened with this read_format (without GROUP). */
int rp_perf_read_count(int fd, uint64_t read_format, rp_count *out);

/* read(2) a group leader opened with read_format | PERF_FORMAT_GROUP: up to
 * max members into members[] (time_enabled/running copied into each), the
 * group size into *nr.  -ENOSPC if the group has more than max members. */
int rp_perf_read_group(int fd, uint64_t read_format, rp_count *members,
                       uint32_t max, uint32_t *nr);

/* value scaled for multiplexing: value * enabled / running (value itself if
 * the times were not read; 0 if the counter never ran). */
uint64_t rp_count_scaled(const rp_count *c);

#ifdef __cplusplus
}
#endif

#endif
