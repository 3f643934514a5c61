#include "rp_adapter_int.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <string.h>
#include <unistd.h>

int rp_bpf_ring_map_check(int map_fd, uint32_t type, int wrong_type, int bad_size,
                          uint64_t *size, size_t *page)
{
	struct bpf_map_info info;
	uint32_t info_len = sizeof info;

	if (map_fd < 0 || fcntl(map_fd, F_GETFD) < 0)
		return -EBADF;
	memset(&info, 0, sizeof info);
	/* bpf_obj_get_info_by_fd: libbpf 1.1 has no bpf_map_get_info_by_fd */
	if (bpf_obj_get_info_by_fd(map_fd, &info, &info_len) < 0)
		return -errno;
	if (info.type != type)
		return wrong_type;

	const long pg = sysconf(_SC_PAGESIZE);
	const uint64_t sz = info.max_entries;
	if (pg <= 0 || !rp_is_pow2(sz) || sz % (uint64_t)pg != 0 || sz > (UINT64_C(1) << 32) / 2)
		return bad_size;
	*size = sz;
	*page = (size_t)pg;
	return 0;
}
