/* ptx.h: count instruction patterns in one kernel of a PTX file (nvcc -ptx).
 * Needs no GPU, so these checks run everywhere. */
#ifndef SCANLAB_PTX_H
#define SCANLAB_PTX_H

#include <stddef.h>

/* Counts the lines of kernel `kernel`'s body (from ".entry kernel(" to its
 * closing brace) that match the POSIX extended regex `pattern`. Returns the
 * count, or -1 with a one-line reason in err (file unreadable, kernel absent,
 * bad pattern). */
long ptx_count(const char *ptx_path, const char *kernel, const char *pattern, char *err, size_t errcap);

#endif
