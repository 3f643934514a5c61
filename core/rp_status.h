/* Status codes of the whole library.
 *
 * One code space for the core and the adapters: 0 and small positive values
 * are normal outcomes, codes from -1000 down are ringproof's own errors, and
 * adapters return other negative values as -errno.  Ranges, so that modules
 * can add codes without colliding:
 *   -1001 .. -1099  perf ring framing (rp_ring.h)
 *   -1100 .. -1199  record views and the sample parser
 *   -1200 .. -1299  backward (overwrite) ring walk
 *   -1300 .. -1399  BPF ring buffer walk
 *   -1400 .. -1499  user ring buffer producer (rp_user_ring.h)
 *   -1900 .. -1999  adapters (ringproof-specific, non-errno)
 *
 * Proved: rp_status_text reads and writes nothing but its constant table.
 * Tested, not proved: that every code has a text (tests/unit/test_status).
 */
#ifndef RP_STATUS_H
#define RP_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rp_status {
	RP_OK = 0,    /* a record was decoded */
	RP_EMPTY = 1, /* tail == head: nothing to read */
	RP_MORE = 2,  /* a batch stopped at its capacity; records remain */
	RP_BUSY = 3,  /* the producer has not finished the next record yet */
	RP_OTHER = 4, /* a typed batch stopped before a record of another kind:
	               * read that one with rp_ring_next (rp_ring.h) */

	/* perf ring framing: the ring is inconsistent at tail; nothing moved */
	RP_E_OVERRUN = -1001,    /* head - tail > ring size */
	RP_E_TAIL_ALIGN = -1002, /* tail is not 8-aligned */
	RP_E_HDR_SHORT = -1003,  /* header size < 8 (size 0 would never advance) */
	RP_E_HDR_ALIGN = -1004,  /* header size is not a multiple of 8 */
	RP_E_TRUNCATED = -1005,  /* record (or its header) reaches past head */

	/* record views */
	RP_E_TYPE = -1100,      /* view applied to a record of another type */
	RP_E_BODY_SHORT = -1101, /* a field or length reaches past the record end */

	/* -1102 .. -1199: record and sample parsers (rp_sample.h, rp_records.h) */
	RP_E_SAMPLE_TYPE_BITS = -1102, /* sample_type has bits >= 25 (unknown) */
	RP_E_READ_FORMAT_BITS = -1103, /* read_format has bits >= 5 (unknown) */
	RP_E_WEIGHT_BOTH = -1104,      /* WEIGHT and WEIGHT_STRUCT both set */
	RP_E_LEFTOVER = -1105,         /* bytes left after the last field */
	RP_E_UNKNOWN_TYPE = -1106,     /* record type unknown here; skip it by size */
	RP_E_RAW_ALIGN = -1107,        /* 4 + raw size is not a multiple of 8 */
	RP_E_STACK_DYN = -1108,        /* user stack dyn_size > dumped size */
	RP_E_BUILD_ID_SIZE = -1109,    /* MMAP2 build_id_size > 20 */
	/* backward (overwrite) ring walk: the first two are normal ends */
	RP_BW_END_ZERO = -1201,        /* end: a zero header (never-written space) */
	RP_BW_END_OVERWRITTEN = -1202, /* end: the next record reaches past head + size */
	RP_E_BW_HDR_SHORT = -1203,     /* header size 1..7 */
	RP_E_BW_HDR_ALIGN = -1204,     /* header size not a multiple of 8 */
	RP_E_BW_POS_ALIGN = -1205,     /* head or walked bytes not 8-aligned */
	RP_E_BW_SCRATCH = -1206,       /* record larger than the caller's scratch */

	/* BPF ring buffer walk: the ring is inconsistent at consumer; nothing moved */
	RP_E_RB_OVERRUN = -1301,   /* producer - consumer > ring size */
	RP_E_RB_ALIGN = -1302,     /* consumer or producer not 8-aligned */
	RP_E_RB_LEN = -1304,       /* record length reaches past producer */
	RP_E_RB_MAP_TYPE = -1350,  /* map is not a BPF_MAP_TYPE_RINGBUF */
	RP_E_RB_MAP_SIZE = -1351,  /* ringbuf size not a power-of-two multiple of the page */

	/* user ring buffer producer: nothing was written, nothing moved */
	RP_E_UR_FULL = -1401,         /* no room for the record now (retry later) */
	RP_E_UR_LEN = -1402,          /* payload length above RP_UR_LEN_MAX (2^24 - 1) */
	RP_E_UR_TOO_BIG = -1403,      /* record larger than the ring: can never fit */
	RP_E_UR_OVERRUN = -1404,      /* producer - consumer > ring size */
	RP_E_UR_ALIGN = -1405,        /* consumer or producer not 8-aligned */
	RP_E_UR_OFF = -1406,          /* commit: offset is not a header slot of the ring */
	RP_E_UR_NOT_RESERVED = -1407, /* commit: no pending reservation there */
	RP_E_UR_MAP_TYPE = -1450,     /* map is not a BPF_MAP_TYPE_USER_RINGBUF */
	RP_E_UR_MAP_SIZE = -1451,     /* user ringbuf size not a power-of-two multiple of the page */

	/* adapters (adapters/linux) */
	RP_E_PAGE_COUNT = -1900, /* ring data page count is not a power of two */
	RP_E_ATTR_SIZE = -1901,  /* kernel rejected perf_event_attr.size (E2BIG) */
	RP_E_DATA_SIZE = -1902,  /* control page data_offset/data_size unusable */
	RP_E_MAP_TYPE = -1903,   /* BPF map is not a PERF_EVENT_ARRAY */
	RP_E_MAP_SMALL = -1904,  /* a CPU id is >= the map's max_entries */
	RP_E_CPU_LIST = -1905,   /* the online CPU list could not be parsed */
	RP_E_CONSUMER_POS = -1906, /* ringbuf consumer_pos changed by another writer */
} rp_status;

/* A short constant text for a status code of this header; NULL for any other
 * value (an adapter's -errno, say).  Never fails, never allocates. */
/*@ assigns \nothing; */
const char *rp_status_text(int code);

#ifdef __cplusplus
}
#endif

#endif
