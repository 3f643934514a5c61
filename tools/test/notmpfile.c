/* The tools suite's stand-in for a filesystem without O_TMPFILE (FAT, many
 * FUSE and network filesystems): preloaded (LD_PRELOAD), it fails every
 * open(2) that asks for O_TMPFILE with EOPNOTSUPP, as such a filesystem does,
 * and passes every other open on to the C library. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

typedef int (*open_fn)(const char *, int, ...);

static int refuse_or_open(const char *name, const char *path, int flags, mode_t mode)
{
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	open_fn real = (open_fn)dlsym(RTLD_NEXT, name);
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(path, flags, mode);
}

/* the mode is there when O_CREAT or O_TMPFILE asks for it */
#define MODE_ARG(flags, mode)                                        \
	do {                                                         \
		if ((flags) & (O_CREAT | O_TMPFILE)) {               \
			va_list ap;                                  \
			va_start(ap, flags);                         \
			mode = (mode_t)va_arg(ap, unsigned int);     \
			va_end(ap);                                  \
		}                                                    \
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	MODE_ARG(flags, mode);
	return refuse_or_open("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	MODE_ARG(flags, mode);
	return refuse_or_open("open64", path, flags, mode);
}
