/* Kernel ABI numbers the core needs, restated so that core/ includes no
 * OS header (values from include/uapi/linux/perf_event.h; docs/abi.md).
 *
 * Proved: nothing here has code to prove (constants only).
 * Tested, not proved: that the values are the kernel's (the parsers'
 * real-kernel tests, suite parsers-integration, decode records the kernel
 * writes by these numbers). */
#ifndef RP_ABI_H
#define RP_ABI_H

enum rp_record_type {
	RP_RECORD_MMAP = 1,
	RP_RECORD_LOST = 2,
	RP_RECORD_COMM = 3,
	RP_RECORD_EXIT = 4,
	RP_RECORD_THROTTLE = 5,
	RP_RECORD_UNTHROTTLE = 6,
	RP_RECORD_FORK = 7,
	RP_RECORD_READ = 8,
	RP_RECORD_SAMPLE = 9,
	RP_RECORD_MMAP2 = 10,
	RP_RECORD_AUX = 11,
	RP_RECORD_ITRACE_START = 12,
	RP_RECORD_LOST_SAMPLES = 13,
	RP_RECORD_SWITCH = 14,
	RP_RECORD_SWITCH_CPU_WIDE = 15,
	RP_RECORD_NAMESPACES = 16,
	RP_RECORD_KSYMBOL = 17,
	RP_RECORD_BPF_EVENT = 18,
	RP_RECORD_CGROUP = 19,
	RP_RECORD_TEXT_POKE = 20,
	RP_RECORD_AUX_OUTPUT_HW_ID = 21,
	RP_RECORD_CALLCHAIN_DEFERRED = 22
};

/* perf_event_attr.sample_type bits (docs/abi.md), appended by the parsers. */
#define RP_SAMPLE_IP             (1ULL << 0)
#define RP_SAMPLE_TID            (1ULL << 1)
#define RP_SAMPLE_TIME           (1ULL << 2)
#define RP_SAMPLE_ADDR           (1ULL << 3)
#define RP_SAMPLE_READ           (1ULL << 4)
#define RP_SAMPLE_CALLCHAIN      (1ULL << 5)
#define RP_SAMPLE_ID             (1ULL << 6)
#define RP_SAMPLE_CPU            (1ULL << 7)
#define RP_SAMPLE_PERIOD         (1ULL << 8)
#define RP_SAMPLE_STREAM_ID      (1ULL << 9)
#define RP_SAMPLE_RAW            (1ULL << 10)
#define RP_SAMPLE_BRANCH_STACK   (1ULL << 11)
#define RP_SAMPLE_REGS_USER      (1ULL << 12)
#define RP_SAMPLE_STACK_USER     (1ULL << 13)
#define RP_SAMPLE_WEIGHT         (1ULL << 14)
#define RP_SAMPLE_DATA_SRC       (1ULL << 15)
#define RP_SAMPLE_IDENTIFIER     (1ULL << 16)
#define RP_SAMPLE_TRANSACTION    (1ULL << 17)
#define RP_SAMPLE_REGS_INTR      (1ULL << 18)
#define RP_SAMPLE_PHYS_ADDR      (1ULL << 19)
#define RP_SAMPLE_AUX            (1ULL << 20)
#define RP_SAMPLE_CGROUP         (1ULL << 21)
#define RP_SAMPLE_DATA_PAGE_SIZE (1ULL << 22)
#define RP_SAMPLE_CODE_PAGE_SIZE (1ULL << 23)
#define RP_SAMPLE_WEIGHT_STRUCT  (1ULL << 24)
#define RP_SAMPLE_KNOWN_LIMIT    (1ULL << 25) /* every known bit is below */

/* perf_event_attr.read_format bits */
#define RP_FORMAT_TOTAL_TIME_ENABLED (1ULL << 0)
#define RP_FORMAT_TOTAL_TIME_RUNNING (1ULL << 1)
#define RP_FORMAT_ID                 (1ULL << 2)
#define RP_FORMAT_GROUP              (1ULL << 3)
#define RP_FORMAT_LOST               (1ULL << 4)
#define RP_FORMAT_KNOWN_LIMIT        (1ULL << 5)

/* perf_event_attr.branch_sample_type bits the SAMPLE layout depends on */
#define RP_BRANCH_HW_INDEX (1ULL << 17)
#define RP_BRANCH_COUNTERS (1ULL << 19)

/* header.misc bits the record parsers read */
#define RP_MISC_MMAP_BUILD_ID (1u << 14)
#define RP_MISC_SWITCH_OUT    (1u << 13)

#endif
