/* bpffs: the filesystem BPF objects are pinned in. */
#ifndef RP_BPFFS_H
#define RP_BPFFS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The usual mount point. */
#define RP_BPFFS_DIR "/sys/fs/bpf"

/* Make sure dir (NULL: RP_BPFFS_DIR) is a bpffs mount: 0 if it already is,
 * otherwise mount one there as bpftool does (mount -t bpf bpf dir, mode
 * 0700; needs CAP_SYS_ADMIN) and return 1.  -errno if dir does not exist
 * or the mount is refused.  Not thread-safe against concurrent mounts of
 * the same dir (a second mount would only stack another empty bpffs). */
int rp_bpffs_ensure(const char *dir);

#ifdef __cplusplus
}
#endif

#endif
