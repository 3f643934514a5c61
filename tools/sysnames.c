#include "sysnames.h"

#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>

#define NAME_CACHE 1024 /* syscall numbers below this are cached */

static char *cache[NAME_CACHE];
static unsigned char looked_up[NAME_CACHE];

const char *rpt_syscall_name(int nr, char *buf, unsigned len)
{
	if (nr >= 0 && nr < NAME_CACHE) {
		if (!looked_up[nr]) {
			looked_up[nr] = 1;
			cache[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
		}
		if (cache[nr])
			return cache[nr];
	}
	snprintf(buf, len, "nr_%d", nr);
	return buf;
}

int rpt_syscall_nr(const char *name)
{
	char *end;
	long v = strtol(name, &end, 10);
	if (*name && !*end)
		return v >= 0 && v < 100000 ? (int)v : -1;
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);
	return nr == __NR_SCMP_ERROR || nr < 0 ? -1 : nr;
}
