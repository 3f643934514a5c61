#include "rp_bpffs.h"

#include <errno.h>
#include <sys/mount.h>
#include <sys/statfs.h>

#include <linux/magic.h>

int rp_bpffs_ensure(const char *dir)
{
	struct statfs st;

	if (!dir)
		dir = RP_BPFFS_DIR;
	if (statfs(dir, &st) < 0)
		return -errno;
	if ((unsigned long)st.f_type == (unsigned long)BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", dir, "bpf", 0, "mode=0700") < 0)
		return -errno;
	return 1;
}
