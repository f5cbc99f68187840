/* kind_table.h: the data of the table of check kinds, one row per kind.
 *
 * A row holds what reading and checking a grade.conf needs of a kind: its name,
 * the keys it requires and allows (beyond KEYS_EVERY_*), whether it needs a GPU
 * and a sane reference, its time-limit factor, an extra rule for its section,
 * and its line for `grade --kinds`. The config parser and validator (conf.c,
 * conf_keys.c), `grade --kinds` (kinds.c) and the test that holds
 * docs/grading.md to the table read it.
 *
 * A leaf of the kind modules: it depends on conf_types.h only. How a kind is run (its
 * run function, which needs the grading context of checks.h) is bound to its
 * row in kinds.h. */
#ifndef SCANLAB_KIND_TABLE_H
#define SCANLAB_KIND_TABLE_H

#include <stddef.h>

#include "conf_types.h"

/* An extra rule for a section once it is read: 1, or 0 with why. */
typedef int (*kind_rule_fn)(const check_conf *c, char *why, size_t cap);

typedef struct kind_row {
  const char *name;
  unsigned required, optional; /* KEY_BIT()s beyond those every check takes */
  int needs_gpu;
  int needs_reference; /* not scored when the reference failed its start-up test */
  double timeout_factor; /* of the assignment's timeout, when the check sets none */
  kind_rule_fn rule;     /* NULL: none */
  const char *summary;   /* one line, for `grade --kinds` */
  int alone;             /* it times or profiles the GPU: run with no other check beside it (schedule.h) */
} kind_row;

extern const kind_row KIND_ROWS[KIND_COUNT];

/* The row of a kind, or NULL when k is not one: an unknown kind is an error, never a fallback. */
const kind_row *kind_row_get(check_kind k);
/* The row named name, or NULL. */
const kind_row *kind_row_find(const char *name);

#endif
