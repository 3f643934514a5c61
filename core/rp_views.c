#include "rp_views.h"

RP_HOT rp_status rp_bpf_output_view(const rp_record *rec, rp_bpf_output *out)
{
	uint32_t raw;
	rp_span data;

	if (rec->type != RP_RECORD_SAMPLE)
		return RP_E_TYPE;
	if (!rp_span_get_u32(rec->body, 0, &raw))
		return RP_E_BODY_SHORT;
	/* raw + 4 > len, without overflowing u32 */
	if (!rp_span_sub(rec->body, 4, raw, &data))
		return RP_E_BODY_SHORT;
	out->raw_size = raw;
	out->data = data;
	return RP_OK;
}

RP_HOT rp_status rp_lost_view(const rp_record *rec, rp_lost *out)
{
	uint64_t id;
	uint64_t lost;

	if (rec->type != RP_RECORD_LOST)
		return RP_E_TYPE;
	if (!rp_span_get_u64(rec->body, 8, &lost))
		return RP_E_BODY_SHORT;
	(void)rp_span_get_u64(rec->body, 0, &id);
	out->id = id;
	out->lost = lost;
	return RP_OK;
}
