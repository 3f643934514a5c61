#include <string.h>

#include "rp_error.h"
#include "rp_status.h"

const char *rp_strerror(int code)
{
	const char *text = rp_status_text(code);
	if (text)
		return text;
	if (code < 0 && code > -4096) {
		/* glibc's strerrordesc_np returns a constant string (thread-safe). */
		text = strerrordesc_np(-code);
		if (text)
			return text;
	}
	return "unknown error code";
}
