/* conf.h: an assignment's grade.conf, read with inih and checked strictly.
 *
 *   [assignment]                 name, title, timeout (seconds per run)
 *   [correct-shfl]               one section per check; the section name is the check's name
 *   kind = correct               a row of the kind table (kind_table.h; `grade --kinds` prints it)
 *   points = 15
 *   ...                          the kind's own keys (docs/grading.md lists them)
 *
 * The keys a check section may hold are one table in conf_keys.c (name, key bit,
 * parser); which of them a kind requires or allows is its row in kind_table.c.
 * Every error is reported as "file:line: reason". */
#ifndef SCANLAB_CONF_H
#define SCANLAB_CONF_H

#include <stddef.h>
#include <stdio.h>

#include "conf_types.h"

/* Reads and validates path. Returns 0, or -1 with "path:line: reason" in err. */
int conf_load(const char *path, assignment_conf *a, char *err, size_t errcap);

/* The kind's name, from the kind table; "?" out of range. */
const char *conf_kind_name(check_kind k);
/* 1 when the kind needs a CUDA device to run. */
int conf_kind_needs_gpu(check_kind k);
/* The key's name in grade.conf (its first spelling in the key table). */
const char *conf_key_name(conf_key k);
/* Writes the names of the keys in mask, comma-separated ("-" when none). */
void conf_keys_print(FILE *f, unsigned mask);
double conf_total_points(const assignment_conf *a);

#endif
