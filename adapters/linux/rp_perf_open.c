#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rp_perf.h"
#include "rp_status.h"

int rp_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
                 unsigned long flags, int *fd, uint32_t *kernel_size)
{
	long r;

	if (!attr || !fd)
		return -EINVAL;
	if (attr->size == 0)
		attr->size = sizeof(*attr);
	r = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
	            flags | PERF_FLAG_FD_CLOEXEC);
	if (r < 0) {
		int err = errno;
		if (err == E2BIG) {
			/* The kernel wrote the size it supports into attr->size. */
			if (kernel_size)
				*kernel_size = attr->size;
			return RP_E_ATTR_SIZE;
		}
		return -err;
	}
	*fd = (int)r;
	return 0;
}

/* Integer ioctl arguments are passed as long: the kernel reads an unsigned
 * long, and an int -1 through varargs would arrive as 0xffffffff. */
static int ioctl_rc(int r)
{
	return r < 0 ? -errno : 0;
}

int rp_perf_enable(int fd, bool group)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_ENABLE, group ? (long)PERF_IOC_FLAG_GROUP : 0L));
}

int rp_perf_disable(int fd, bool group)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_DISABLE, group ? (long)PERF_IOC_FLAG_GROUP : 0L));
}

int rp_perf_refresh(int fd, int count)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_REFRESH, (long)count));
}

int rp_perf_reset(int fd, bool group)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_RESET, group ? (long)PERF_IOC_FLAG_GROUP : 0L));
}

int rp_perf_set_period(int fd, uint64_t period)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
}

int rp_perf_set_output(int fd, int target_fd)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (long)target_fd));
}

int rp_perf_set_filter(int fd, const char *filter)
{
	if (!filter)
		return -EINVAL;
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
}

int rp_perf_id(int fd, uint64_t *id)
{
	if (!id)
		return -EINVAL;
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_ID, id));
}

int rp_perf_set_bpf(int fd, int prog_fd)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_SET_BPF, (long)prog_fd));
}

int rp_perf_pause_output(int fd, bool pause)
{
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1L : 0L));
}

enum { QUERY_MAX_IDS = 64 };

int rp_perf_query_bpf(int fd, uint32_t *ids, uint32_t max, uint32_t *count)
{
	/* struct perf_event_query_bpf: u32 ids_len, u32 prog_cnt, u32 ids[]. */
	uint32_t q[2 + QUERY_MAX_IDS];
	uint32_t n;

	if (!count || (max && !ids))
		return -EINVAL;
	memset(q, 0, sizeof(q));
	q[0] = max < QUERY_MAX_IDS ? max : QUERY_MAX_IDS;
	if (ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, q) < 0) {
		/* ENOSPC: ids_len too small; prog_cnt still holds the total. */
		if (errno != ENOSPC)
			return -errno;
	}
	n = q[1] < q[0] ? q[1] : q[0];
	if (n)
		memcpy(ids, &q[2], n * sizeof(uint32_t));
	*count = q[1];
	return 0;
}

int rp_perf_modify_attributes(int fd, struct perf_event_attr *attr)
{
	if (!attr)
		return -EINVAL;
	if (attr->size == 0)
		attr->size = sizeof(*attr);
	return ioctl_rc(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr));
}

/* ---- counting reads ---- */

enum { GROUP_MAX = 64 };

static int read_u64s(int fd, uint64_t *buf, size_t max_words, size_t *words)
{
	ssize_t n;

	do
		n = read(fd, buf, max_words * sizeof(uint64_t));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n % sizeof(uint64_t))
		return -EIO;
	*words = (size_t)n / sizeof(uint64_t);
	return 0;
}

int rp_perf_read_count(int fd, uint64_t read_format, rp_count *out)
{
	uint64_t buf[5];
	size_t words, need = 1, i = 1;
	int err;

	if (!out || (read_format & PERF_FORMAT_GROUP))
		return -EINVAL;
	need += !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	need += !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	need += !!(read_format & PERF_FORMAT_ID);
	need += !!(read_format & PERF_FORMAT_LOST);
	err = read_u64s(fd, buf, need, &words);
	if (err)
		return err;
	if (words != need)
		return -EIO;
	memset(out, 0, sizeof(*out));
	out->value = buf[0];
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = buf[i++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) out->time_running = buf[i++];
	if (read_format & PERF_FORMAT_ID) out->id = buf[i++];
	if (read_format & PERF_FORMAT_LOST) out->lost = buf[i++];
	return 0;
}

int rp_perf_read_group(int fd, uint64_t read_format, rp_count *members,
                       uint32_t max, uint32_t *nr)
{
	/* nr, enabled, running, then up to GROUP_MAX x {value, id, lost}. */
	uint64_t buf[3 + 3 * GROUP_MAX];
	size_t words, head = 1, per = 1, i;
	uint64_t enabled = 0, running = 0, n;
	uint32_t k;
	int err;

	if (!members || !nr || !(read_format & PERF_FORMAT_GROUP))
		return -EINVAL;
	err = read_u64s(fd, buf, sizeof(buf) / sizeof(buf[0]), &words);
	if (err)
		return err;
	head += !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED);
	head += !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	per += !!(read_format & PERF_FORMAT_ID);
	per += !!(read_format & PERF_FORMAT_LOST);
	if (words < head)
		return -EIO;
	n = buf[0];
	i = 1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) enabled = buf[i++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) running = buf[i++];
	if (n > (words - head) / per)
		return -EIO;
	if (n > max)
		return -ENOSPC;
	for (k = 0; k < n; k++) {
		rp_count *c = &members[k];
		memset(c, 0, sizeof(*c));
		c->value = buf[i++];
		c->time_enabled = enabled;
		c->time_running = running;
		if (read_format & PERF_FORMAT_ID) c->id = buf[i++];
		if (read_format & PERF_FORMAT_LOST) c->lost = buf[i++];
	}
	*nr = (uint32_t)n;
	return 0;
}

uint64_t rp_count_scaled(const rp_count *c)
{
	if (c->time_enabled == 0 && c->time_running == 0)
		return c->value;
	if (c->time_running == 0)
		return 0;
	if (c->time_running >= c->time_enabled)
		return c->value;
	return (uint64_t)((unsigned __int128)c->value * c->time_enabled / c->time_running);
}
