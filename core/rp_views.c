/* The inline definition of rp_views.h (RP_INLINE) is proved here. */
#define RP_DEFINE_VIEWS
#include "rp_views.h"

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
