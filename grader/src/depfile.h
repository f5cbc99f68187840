/* depfile.h: the prerequisites of a make-style dependency file, as nvcc -MD -MF
 * writes it: what a compile really read, for the build's check of what the
 * runner of an inline assignment contains (build_check.h). */
#ifndef SCANLAB_DEPFILE_H
#define SCANLAB_DEPFILE_H

/* Reads path: every prerequisite of every rule (continuation backslashes
 * joined, "\ " a space in a name), each resolved with realpath (`..` and
 * symbolic links followed; kept as written where it does not resolve), into a
 * malloc'd array of malloc'd strings. Returns the count, or -1 with errno. */
int depfile_read(const char *path, char ***paths);
void depfile_free(char **paths, int n);

#endif
