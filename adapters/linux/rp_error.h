/* Error text for every code the library returns.
 *
 * Adapters return 0 (or a count) on success and a negative code on failure:
 * either -errno from a system call, or one of ringproof's own codes
 * (RP_E_* in core/rp_status.h; adapter-specific ones are -1900 .. -1999). */
#ifndef RP_ERROR_H
#define RP_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* A constant, thread-safe text for any status or error code: rp_status_text
 * for ringproof codes, the C library's description for -errno, and a generic
 * text for anything else.  Never NULL. */
const char *rp_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
