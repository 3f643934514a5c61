#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rp_perf.h"

void rp_attr_init(struct perf_event_attr *attr, uint32_t type, uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

void rp_attr_init_hw(struct perf_event_attr *attr, uint64_t hw_config)
{
	rp_attr_init(attr, PERF_TYPE_HARDWARE, hw_config);
}

void rp_attr_init_sw(struct perf_event_attr *attr, uint64_t sw_config)
{
	rp_attr_init(attr, PERF_TYPE_SOFTWARE, sw_config);
}

void rp_attr_init_raw(struct perf_event_attr *attr, uint64_t raw_config)
{
	rp_attr_init(attr, PERF_TYPE_RAW, raw_config);
}

void rp_attr_init_tracepoint_id(struct perf_event_attr *attr, uint64_t id)
{
	rp_attr_init(attr, PERF_TYPE_TRACEPOINT, id);
}

static bool name_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 128)
		return false;
	for (; *s; s++)
		if (*s == '/' || (*s == '.' && s[1] == '.'))
			return false;
	return true;
}

static int read_tracepoint_id(const char *root, const char *category,
                              const char *name, uint64_t *id)
{
	char path[512];
	char buf[32];
	int fd;
	ssize_t n;
	char *end;
	unsigned long long v;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, category, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end != '\n' && *end != '\0'))
		return -EINVAL;
	*id = v;
	return 0;
}

int rp_attr_init_tracepoint(struct perf_event_attr *attr, const char *category,
                            const char *name)
{
	uint64_t id = 0;
	int err;

	if (!name_ok(category) || !name_ok(name))
		return -EINVAL;
	err = read_tracepoint_id("/sys/kernel/tracing", category, name, &id);
	if (err)
		err = read_tracepoint_id("/sys/kernel/debug/tracing", category, name, &id);
	if (err)
		return err;
	rp_attr_init_tracepoint_id(attr, id);
	return 0;
}

void rp_attr_init_bpf_output(struct perf_event_attr *attr)
{
	rp_attr_init_sw(attr, PERF_COUNT_SW_BPF_OUTPUT);
	attr->sample_type = PERF_SAMPLE_RAW;
	attr->sample_period = 1;
	attr->wakeup_events = 1;
}

int rp_attr_set_period(struct perf_event_attr *attr, uint64_t period)
{
	if (period == 0)
		return -EINVAL;
	attr->freq = 0;
	attr->sample_period = period;
	return 0;
}

int rp_attr_set_freq(struct perf_event_attr *attr, uint64_t hz)
{
	if (hz == 0)
		return -EINVAL;
	attr->freq = 1;
	attr->sample_freq = hz;
	return 0;
}

static void apply_flags(struct perf_event_attr *attr, unsigned flags, unsigned v)
{
	if (flags & RP_ATTR_DISABLED) attr->disabled = v;
	if (flags & RP_ATTR_INHERIT) attr->inherit = v;
	if (flags & RP_ATTR_PINNED) attr->pinned = v;
	if (flags & RP_ATTR_EXCLUSIVE) attr->exclusive = v;
	if (flags & RP_ATTR_EXCLUDE_USER) attr->exclude_user = v;
	if (flags & RP_ATTR_EXCLUDE_KERNEL) attr->exclude_kernel = v;
	if (flags & RP_ATTR_EXCLUDE_HV) attr->exclude_hv = v;
	if (flags & RP_ATTR_EXCLUDE_IDLE) attr->exclude_idle = v;
	if (flags & RP_ATTR_SAMPLE_ID_ALL) attr->sample_id_all = v;
	if (flags & RP_ATTR_WRITE_BACKWARD) attr->write_backward = v;
	if (flags & RP_ATTR_ENABLE_ON_EXEC) attr->enable_on_exec = v;
	if (flags & RP_ATTR_INHERIT_STAT) attr->inherit_stat = v;
}

void rp_attr_set_flags(struct perf_event_attr *attr, unsigned flags)
{
	apply_flags(attr, flags, 1);
}

void rp_attr_clear_flags(struct perf_event_attr *attr, unsigned flags)
{
	apply_flags(attr, flags, 0);
}

void rp_attr_set_sample_type(struct perf_event_attr *attr, uint64_t sample_type)
{
	attr->sample_type = sample_type;
}

void rp_attr_set_read_format(struct perf_event_attr *attr, uint64_t read_format)
{
	attr->read_format = read_format;
}

void rp_attr_set_wakeup_events(struct perf_event_attr *attr, uint32_t n)
{
	attr->watermark = 0;
	attr->wakeup_events = n;
}

void rp_attr_set_wakeup_bytes(struct perf_event_attr *attr, uint32_t bytes)
{
	attr->watermark = 1;
	attr->wakeup_watermark = bytes;
}

void rp_attr_set_clockid(struct perf_event_attr *attr, int clockid)
{
	attr->use_clockid = 1;
	attr->clockid = clockid;
}
