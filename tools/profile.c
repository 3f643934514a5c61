#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "ringproof-record 1"
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

int rpt_profile_load(rpt_profile *p, FILE *f, unsigned long *line)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	uint64_t *frames = malloc(MAX_FRAMES * sizeof(uint64_t));
	int err = 0, callchains = 0;

	memset(p, 0, sizeof(*p));
	*line = 0;
	if (!frames)
		return -ENOMEM;
	while ((len = getline(&buf, &cap, f)) > 0) {
		++*line;
		if (buf[len - 1] == '\n')
			buf[--len] = 0;
		rpt_task_ev e = { 0 };
		int n = 0, ex = 0;
		err = -EINVAL;
		if (*line == 1) {
			if (strcmp(buf, MAGIC))
				break;
		} else if (*line == 2) {
			if (sscanf(buf, "event %31s hz %" SCNu64 " lost %" SCNu64 " corrupt %" SCNu64 " secs %lf callchains %d",
			           p->event, &p->hz, &p->lost, &p->corrupt, &p->secs, &callchains) != 6)
				break;
			p->callchains = callchains;
		} else if (buf[0] == 'c') {
			e.type = RPT_EV_COMM;
			if (sscanf(buf, "c %" SCNu64 " %u %u %d %n", &e.time, &e.pid, &e.tid, &ex, &n) != 4 || !n)
				break;
			e.exec = ex;
			e.name = buf + n;
			if (rpt_profile_add_ev(p, &e))
				goto nomem;
		} else if (buf[0] == 'm') {
			e.type = RPT_EV_MAP;
			if (sscanf(buf, "m %" SCNu64 " %u %" SCNx64 " %" SCNx64 " %" SCNx64, &e.time, &e.pid,
			           &e.start, &e.len, &e.pgoff) != 5 || !(e.name = after_fields(buf, 6)))
				break;
			if (rpt_profile_add_ev(p, &e))
				goto nomem;
		} else if (buf[0] == 'f') {
			e.type = RPT_EV_FORK;
			if (sscanf(buf, "f %" SCNu64 " %u %u %u", &e.time, &e.pid, &e.ppid, &e.tid) != 4)
				break;
			if (rpt_profile_add_ev(p, &e))
				goto nomem;
		} else if (buf[0] == 's') {
			rpt_sample_rec s = { 0 };
			unsigned misc;
			if (sscanf(buf, "s %" SCNu64 " %u %u %u %" SCNu64 " %u %u%n", &s.time, &s.pid, &s.tid,
			           &s.cpu, &s.period, &misc, &s.nframes, &n) != 7 || s.nframes > MAX_FRAMES)
				break;
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
				break;
			s.frames = frames;
			if (rpt_profile_add_sample(p, &s))
				goto nomem;
		} else {
			break;
		}
		err = 0;
	}
	if (!err && *line < 2)
		err = -EINVAL;
	if (!err && ferror(f))
		err = -EIO;
	goto out;
nomem:
	err = -ENOMEM;
out:
	free(buf);
	free(frames);
	if (err)
		rpt_profile_free(p);
	return err;
}
