/* grade_table.h: the grader's terminal table: an assignment's heading (and why its
 * student code is not graded, when it is not), then one row per check, printed in
 * the grade.conf's order while the schedule (schedule.h) finishes checks in its own. */
#ifndef SCANLAB_GRADE_TABLE_H
#define SCANLAB_GRADE_TABLE_H

#include "report.h"
#include "schedule.h"

/* The table, printed in the grade.conf's order while the schedule finishes
 * checks in its own: a row as soon as it and every row above it are done. */
typedef struct table {
  run_report *rep;
  const assignment_ctx *ctxs[REPORT_MAX_ASSIGNMENTS]; /* NULL: the conf did not load */
  sched_item *items;
  int n, next;  /* items; the next row to print */
  int next_asg; /* the next assignment whose heading is due */
  int colour, tty;
} table;

/* Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
int grade_table_colour(void);
/* Prints the headings of assignments next_asg .. upto - 1. */
void table_heads(table *t, int upto);
/* The schedule's callback (arg: a table): prints every row that is due. */
void table_done(void *arg, int item);

#endif
