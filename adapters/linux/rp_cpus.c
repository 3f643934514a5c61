#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "rp_perf_buffer.h"

/* Parse a kernel CPU list ("0-3,5,7-8\n") into ids. */
int rp_parse_cpu_list(const char *s, int *ids, uint32_t max, uint32_t *n)
{
	uint32_t count = 0;

	while (*s && *s != '\n') {
		long lo = 0, hi;
		if (*s < '0' || *s > '9')
			return RP_E_CPU_LIST;
		while (*s >= '0' && *s <= '9') {
			lo = lo * 10 + (*s++ - '0');
			if (lo > 1 << 20)
				return RP_E_CPU_LIST;
		}
		hi = lo;
		if (*s == '-') {
			s++;
			if (*s < '0' || *s > '9')
				return RP_E_CPU_LIST;
			hi = 0;
			while (*s >= '0' && *s <= '9') {
				hi = hi * 10 + (*s++ - '0');
				if (hi > 1 << 20)
					return RP_E_CPU_LIST;
			}
			if (hi < lo)
				return RP_E_CPU_LIST;
		}
		for (long c = lo; c <= hi; c++) {
			if (count == max)
				return -ENOSPC;
			ids[count++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return RP_E_CPU_LIST;
	}
	if (count == 0)
		return RP_E_CPU_LIST;
	*n = count;
	return 0;
}

int rp_online_cpus(int *ids, uint32_t max, uint32_t *n)
{
	char buf[4096];
	ssize_t len;
	int fd;

	if (!ids || !n)
		return -EINVAL;
	fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	close(fd);
	buf[len] = '\0';
	return rp_parse_cpu_list(buf, ids, max, n);
}
