/* verdict.c: a call's verdict, started and merged (verdict.h). */
#include "verdict.h"

#include <string.h>

void judge_verdict_init(spec_verdict *v) {
  memset(v, 0, sizeof *v);
  v->first_bad = v->first_x = v->first_y = -1;
}

void judge_verdict_merge(spec_verdict *v, const spec_verdict *c) {
  v->mismatches += c->mismatches;
  v->masked += c->masked;
  v->nonfinite += c->nonfinite;
  if (c->max_err > v->max_err) v->max_err = c->max_err;
  if (v->first_bad < 0 && c->first_bad >= 0) v->first_bad = c->first_bad, v->first_x = c->first_x, v->first_y = c->first_y;
}
