#include <stddef.h>

#include "rp_status.h"

const char *rp_status_text(int code)
{
	switch (code) {
	case RP_OK: return "ok";
	case RP_EMPTY: return "ring empty";
	case RP_MORE: return "batch full, more records remain";
	case RP_BUSY: return "next record not yet committed by the producer";
	case RP_E_OVERRUN: return "corrupt ring: head is more than the ring size ahead of tail";
	case RP_E_TAIL_ALIGN: return "corrupt ring: tail is not 8-byte aligned";
	case RP_E_HDR_SHORT: return "corrupt record: header size below 8";
	case RP_E_HDR_ALIGN: return "corrupt record: header size not a multiple of 8";
	case RP_E_TRUNCATED: return "corrupt record: reaches past head";
	case RP_E_TYPE: return "record is not of the type this view reads";
	case RP_E_BODY_SHORT: return "a field or length reaches past the record end";
	default: return NULL;
	}
}
