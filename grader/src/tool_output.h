/* tool_output.h: reading what tools print: the last line of a child's stderr,
 * compute-sanitizer's report, ncu's CSV, a model's verdicts (the build's own
 * output is build_step.h's). */
#ifndef SCANLAB_TOOL_OUTPUT_H
#define SCANLAB_TOOL_OUTPUT_H

#include <stdio.h>

#include "proc.h"

/* The end of the last non-empty line of a capture (its last 120 characters),
 * for "exit 3: <CUDA error>": error messages end lines. */
void output_last_line(const capture *c, char *out, size_t cap);

/* Copies compute-sanitizer's report lines ("========= ...") to f, at most 24,
 * and puts the first error or hazard line in first ("" when none). */
void output_sanitizer_lines(const capture *c, FILE *f, char *first, size_t cap);

/* Sums the values ncu printed (--csv) for the comma-separated metrics.
 * Returns how many of them it found. */
int output_ncu_values(const capture *c, const char *metrics, double *sum);

/* A model's own words for a failed case: the rest of its stdout line "CASE: ...",
 * put in why; why is unchanged when there is no such line. */
void output_model_verdict(const char *text, const char *case_name, char *why, size_t cap);

#endif
