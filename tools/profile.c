#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC_V1 "ringproof-record 1" /* no end line: a cut at a line end went unseen */
#define MAGIC "ringproof-record 2"
#define MAX_FRAMES 4096

static int grow(void **a, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 1024;
	void *p = realloc(*a, nc * elem);
	if (!p)
		return -ENOMEM;
	*a = p;
	*cap = nc;
	return 0;
}

int rpt_profile_add_ev(rpt_profile *p, const rpt_task_ev *ev)
{
	if (grow((void **)&p->ev, &p->cap_ev, p->n_ev, sizeof(*p->ev)))
		return -ENOMEM;
	rpt_task_ev *e = &p->ev[p->n_ev];
	*e = *ev;
	e->name = NULL;
	if (ev->name && !(e->name = strdup(ev->name)))
		return -ENOMEM;
	/* one line per event in the file: no newlines in names */
	for (char *c = e->name; c && *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = '?';
	p->n_ev++;
	return 0;
}

int rpt_profile_add_sample(rpt_profile *p, const rpt_sample_rec *s)
{
	if (grow((void **)&p->smp, &p->cap_smp, p->n_smp, sizeof(*p->smp)))
		return -ENOMEM;
	rpt_sample_rec *d = &p->smp[p->n_smp];
	*d = *s;
	d->frames = malloc((s->nframes ? s->nframes : 1) * sizeof(uint64_t));
	if (!d->frames)
		return -ENOMEM;
	memcpy(d->frames, s->frames, s->nframes * sizeof(uint64_t));
	p->n_smp++;
	return 0;
}

void rpt_profile_free(rpt_profile *p)
{
	for (size_t i = 0; i < p->n_ev; i++)
		free(p->ev[i].name);
	for (size_t i = 0; i < p->n_smp; i++)
		free(p->smp[i].frames);
	free(p->ev);
	free(p->smp);
	memset(p, 0, sizeof(*p));
}

int rpt_profile_save(const rpt_profile *p, FILE *f)
{
	errno = 0;
	fprintf(f, MAGIC "\nevent %s hz %" PRIu64 " lost %" PRIu64 " corrupt %" PRIu64 " secs %.6f callchains %d\n",
	        p->event, p->hz, p->lost, p->corrupt, p->secs, p->callchains);
	for (size_t i = 0; i < p->n_ev; i++) {
		const rpt_task_ev *e = &p->ev[i];
		if (e->type == RPT_EV_COMM)
			fprintf(f, "c %" PRIu64 " %u %u %d %s\n", e->time, e->pid, e->tid, e->exec, e->name);
		else if (e->type == RPT_EV_MAP)
			fprintf(f, "m %" PRIu64 " %u %" PRIx64 " %" PRIx64 " %" PRIx64 " %s\n", e->time, e->pid,
			        e->start, e->len, e->pgoff, e->name);
		else
			fprintf(f, "f %" PRIu64 " %u %u %u\n", e->time, e->pid, e->ppid, e->tid);
	}
	for (size_t i = 0; i < p->n_smp; i++) {
		const rpt_sample_rec *s = &p->smp[i];
		fprintf(f, "s %" PRIu64 " %u %u %u %" PRIu64 " %u %u", s->time, s->pid, s->tid, s->cpu,
		        s->period, s->misc, s->nframes);
		for (uint32_t k = 0; k < s->nframes; k++)
			fprintf(f, " %" PRIx64, s->frames[k]);
		fputc('\n', f);
	}
	fprintf(f, "end %zu %zu\n", p->n_ev, p->n_smp);
	if (!fflush(f) && !ferror(f))
		return 0;
	return errno > 0 ? -errno : -EIO; /* the failed write's, e.g. ENOSPC */
}

/* the rest of the line after n space-separated fields */
static char *after_fields(char *s, int n)
{
	for (int i = 0; i < n && s; i++) {
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	return s;
}

static int bad(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Line 2: 0 or -EINVAL. */
static int load_header(rpt_profile *p, const char *buf, char *why, size_t cap)
{
	int callchains = 0;
	if (sscanf(buf, "event %31s hz %" SCNu64 " lost %" SCNu64 " corrupt %" SCNu64 " secs %lf callchains %d",
	           p->event, &p->hz, &p->lost, &p->corrupt, &p->secs, &callchains) != 6)
		return bad(why, cap, "line 2 is not a ringproof record file line");
	if (!isfinite(p->secs) || p->secs < 0)
		return bad(why, cap, "line 2: secs is not a finite number of seconds >= 0");
	p->callchains = callchains;
	return 0;
}

/* A task event or sample line: 0, -EINVAL or -ENOMEM. */
static int load_line(rpt_profile *p, char *buf, uint64_t *frames)
{
	rpt_task_ev e = { 0 };
	int n = 0, ex = 0;
	if (buf[0] == 'c') {
		e.type = RPT_EV_COMM;
		if (sscanf(buf, "c %" SCNu64 " %u %u %d %n", &e.time, &e.pid, &e.tid, &ex, &n) != 4 || !n)
			return -EINVAL;
		e.exec = ex;
		e.name = buf + n;
		return rpt_profile_add_ev(p, &e);
	} else if (buf[0] == 'm') {
		e.type = RPT_EV_MAP;
		if (sscanf(buf, "m %" SCNu64 " %u %" SCNx64 " %" SCNx64 " %" SCNx64, &e.time, &e.pid,
		           &e.start, &e.len, &e.pgoff) != 5 || !(e.name = after_fields(buf, 6)))
			return -EINVAL;
		return rpt_profile_add_ev(p, &e);
	} else if (buf[0] == 'f') {
		e.type = RPT_EV_FORK;
		if (sscanf(buf, "f %" SCNu64 " %u %u %u", &e.time, &e.pid, &e.ppid, &e.tid) != 4)
			return -EINVAL;
		return rpt_profile_add_ev(p, &e);
	} else if (buf[0] != 's') {
		return -EINVAL;
	}
	rpt_sample_rec s = { 0 };
	unsigned misc;
	if (sscanf(buf, "s %" SCNu64 " %u %u %u %" SCNu64 " %u %u%n", &s.time, &s.pid, &s.tid,
	           &s.cpu, &s.period, &misc, &s.nframes, &n) != 7 || s.nframes > MAX_FRAMES)
		return -EINVAL;
	s.misc = (uint16_t)misc;
	char *q = buf + n;
	uint32_t k;
	for (k = 0; k < s.nframes; k++) {
		char *end;
		errno = 0;
		frames[k] = strtoull(q, &end, 16);
		if (end == q || errno)
			break;
		q = end;
	}
	if (k != s.nframes || *q)
		return -EINVAL;
	s.frames = frames;
	return rpt_profile_add_sample(p, &s);
}

/* The end line of a version 2 file: the counts of what came before it. */
static int load_end(const rpt_profile *p, const char *buf, unsigned long line, char *why, size_t cap)
{
	size_t n_ev, n_smp;
	int n = 0;
	if (sscanf(buf, "end %zu %zu%n", &n_ev, &n_smp, &n) != 2 || buf[n])
		return bad(why, cap, "line %lu is not a ringproof record file line", line);
	if (n_ev != p->n_ev || n_smp != p->n_smp)
		return bad(why, cap, "line %lu: the end line counts %zu task records and %zu samples, the file has "
		           "%zu and %zu", line, n_ev, n_smp, p->n_ev, p->n_smp);
	return 0;
}

int rpt_profile_load(rpt_profile *p, FILE *f, char *why, size_t why_cap)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	uint64_t *frames = malloc(MAX_FRAMES * sizeof(uint64_t));
	unsigned long line = 0;
	bool v2 = false, ended = false;
	int err = 0;

	memset(p, 0, sizeof(*p));
	if (!frames)
		return -ENOMEM;
	while (!err && (len = getline(&buf, &cap, f)) > 0) {
		++line;
		if (buf[len - 1] != '\n') {
			err = bad(why, why_cap, "the file ends in the middle of line %lu (cut short?)", line);
			break;
		}
		buf[--len] = 0;
		if (ended) {
			err = bad(why, why_cap, "line %lu comes after the end line", line);
		} else if (line == 1) {
			v2 = !strcmp(buf, MAGIC);
			if (!v2 && strcmp(buf, MAGIC_V1))
				err = bad(why, why_cap, "line 1 is not a ringproof record file line");
		} else if (line == 2) {
			err = load_header(p, buf, why, why_cap);
		} else if (v2 && !strncmp(buf, "end ", 4)) {
			err = load_end(p, buf, line, why, why_cap);
			ended = true;
		} else if ((err = load_line(p, buf, frames)) == -EINVAL) {
			bad(why, why_cap, "line %lu is not a ringproof record file line", line);
		}
	}
	if (!err && ferror(f))
		err = errno > 0 ? -errno : -EIO; /* getline's: EISDIR for a directory */
	else if (!err && line == 0)
		err = bad(why, why_cap, "the file is empty");
	else if (!err && line == 1)
		err = bad(why, why_cap, "the file ends early: line 2 (the header) is missing");
	else if (!err && v2 && !ended)
		err = bad(why, why_cap, "the file ends early: no end line after line %lu (cut short?)", line);
	free(buf);
	free(frames);
	if (err)
		rpt_profile_free(p);
	return err;
}
