/* grade_table.c: the grader's terminal table (grade_table.h). */
#include "grade_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "checks.h"

/* Colour only on a terminal, and never when NO_COLOR is set (no-color.org). */
int grade_table_colour(void) { return isatty(1) && !getenv("NO_COLOR"); }

static const char *colour_of(verdict v) {
  static const char *const C[] = {"\033[32m", "\033[33m", "\033[31m", "\033[2m", "\033[35m", "\033[2m"};
  return C[v];
}

static void print_row(const check_result *r, int idx, int total, int colour, int tty) {
  const char *on = colour ? colour_of(r->v) : "", *off = colour ? "\033[0m" : "";
  char verdict[16];
  snprintf(verdict, sizeof verdict, "%s", verdict_name(r->v));
  for (char *c = verdict; *c; c++) *c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
  /* The check's seconds last: where a grading's time goes, without moving the columns. */
  printf("%s  [%2d/%2d] %-24s %-9s %s%-8s%s %6.2f/%-6.2f %s (%.1f s)\n", tty ? "\r\033[K" : "", idx, total, r->conf->name,
         conf_kind_name(r->conf->kind), on, verdict, off, r->score, r->max, r->reason, r->seconds);
  fflush(stdout);
}


/* The headings of assignments next_asg .. upto - 1 (an assignment without
 * checks, such as one whose grade.conf failed, is all heading). */
void table_heads(table *t, int upto) {
  for (; t->next_asg < upto; t->next_asg++) {
    const assignment_report *ar = &t->rep->assignments[t->next_asg];
    const assignment_ctx *ctx = t->ctxs[t->next_asg];
    if (!ctx) {
      printf("\n%s: not graded (grade.conf error)\n", ar->name);
      continue;
    }
    printf("\n%s: %s (%.0f points)\n", ctx->conf->name, ctx->conf->title, conf_total_points(ctx->conf));
    if (!ctx->student_ok) printf("  %s\n", ctx->student_error);
    if (ctx->env->have_gpu && !ctx->reference_ok) printf("  %s: performance and correctness checks are not scored\n", ctx->reference_error);
  }
  fflush(stdout);
}

static int asg_of(const table *t, const sched_item *it) {
  int a = 0;
  while (t->ctxs[a] != it->ctx) a++;
  return a;
}

void table_done(void *arg, int item) {
  table *t = arg;
  (void)item;
  while (t->next < t->n && t->items[t->next].done) {
    const sched_item *it = &t->items[t->next++];
    table_heads(t, asg_of(t, it) + 1);
    print_row(it->r, it->index + 1, it->ctx->conf->n_checks, t->colour, t->tty);
  }
  if (t->tty && t->next < t->n) { /* progress, overwritten by the next row */
    const sched_item *it = &t->items[t->next];
    table_heads(t, asg_of(t, it) + 1);
    int busy = 0;
    for (int i = 0; i < t->n; i++) busy += t->items[i].running;
    printf("  [%2d/%2d] %-24s %-9s running...%s", it->index + 1, it->ctx->conf->n_checks, it->c->name, conf_kind_name(it->c->kind),
           busy > 1 ? " (and others beside it)" : "");
    fflush(stdout);
  }
}

