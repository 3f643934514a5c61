#include <stddef.h>

#include "rp_status.h"

const char *rp_status_text(int code)
{
	switch (code) {
	case RP_OK: return "ok";
	case RP_EMPTY: return "ring empty";
	case RP_MORE: return "batch full, more records remain";
	case RP_BUSY: return "next record not yet committed by the producer";
	case RP_OTHER: return "batch stopped before a record of another kind";
	case RP_E_OVERRUN: return "corrupt ring: head is more than the ring size ahead of tail";
	case RP_E_TAIL_ALIGN: return "corrupt ring: tail is not 8-byte aligned";
	case RP_E_HDR_SHORT: return "corrupt record: header size below 8";
	case RP_E_HDR_ALIGN: return "corrupt record: header size not a multiple of 8";
	case RP_E_TRUNCATED: return "corrupt record: reaches past head";
	case RP_E_TYPE: return "record is not of the type this view reads";
	case RP_E_BODY_SHORT: return "a field or length reaches past the record end";
	case RP_E_SAMPLE_TYPE_BITS: return "sample_type has unknown bits (25 and up)";
	case RP_E_READ_FORMAT_BITS: return "read_format has unknown bits (5 and up)";
	case RP_E_WEIGHT_BOTH: return "sample_type has both WEIGHT and WEIGHT_STRUCT";
	case RP_E_LEFTOVER: return "record has bytes left after its last field";
	case RP_E_UNKNOWN_TYPE: return "record type unknown to the parser (skip it by size)";
	case RP_E_RAW_ALIGN: return "raw size + 4 is not a multiple of 8";
	case RP_E_STACK_DYN: return "user stack dyn_size exceeds the dumped size";
	case RP_E_BUILD_ID_SIZE: return "MMAP2 build-id size above 20";
	case RP_BW_END_ZERO: return "backward walk ended at a zero header";
	case RP_BW_END_OVERWRITTEN: return "backward walk ended: the next record was overwritten";
	case RP_E_BW_HDR_SHORT: return "corrupt backward record: header size below 8";
	case RP_E_BW_HDR_ALIGN: return "corrupt backward record: header size not a multiple of 8";
	case RP_E_BW_POS_ALIGN: return "backward walk position not 8-byte aligned";
	case RP_E_BW_SCRATCH: return "backward record larger than the scratch buffer";
	case RP_E_RB_OVERRUN: return "corrupt ringbuf: producer is more than the ring size ahead of consumer";
	case RP_E_RB_ALIGN: return "corrupt ringbuf: position not 8-byte aligned";
	case RP_E_RB_LEN: return "corrupt ringbuf: record length reaches past producer";
	case RP_E_RB_MAP_TYPE: return "map is not a BPF ring buffer";
	case RP_E_RB_MAP_SIZE: return "ring buffer size is not a power-of-two multiple of the page size";
	case RP_E_UR_FULL: return "user ring buffer full: no room for the record now";
	case RP_E_UR_LEN: return "user ring buffer record longer than 2^24 - 1 bytes";
	case RP_E_UR_TOO_BIG: return "user ring buffer record larger than the ring";
	case RP_E_UR_OVERRUN: return "corrupt user ringbuf: producer is more than the ring size ahead of consumer";
	case RP_E_UR_ALIGN: return "corrupt user ringbuf: position not 8-byte aligned";
	case RP_E_UR_OFF: return "user ringbuf commit: not a record header offset of the ring";
	case RP_E_UR_NOT_RESERVED: return "user ringbuf commit: no pending reservation at this record";
	case RP_E_UR_MAP_TYPE: return "map is not a BPF user ring buffer";
	case RP_E_UR_MAP_SIZE: return "user ring buffer size is not a power-of-two multiple of the page size";
	case RP_E_PAGE_COUNT: return "ring data page count is not a power of two";
	case RP_E_ATTR_SIZE: return "kernel rejected perf_event_attr size (see the size it reported)";
	case RP_E_DATA_SIZE: return "ring control page reports an unusable data_offset/data_size";
	case RP_E_MAP_TYPE: return "BPF map is not a BPF_MAP_TYPE_PERF_EVENT_ARRAY";
	case RP_E_MAP_SMALL: return "BPF map has fewer entries than the highest CPU id";
	case RP_E_CPU_LIST: return "cannot parse the online CPU list";
	case RP_E_CONSUMER_POS: return "ringbuf consumer_pos changed by another writer (restored)";
	default: return NULL;
	}
}
