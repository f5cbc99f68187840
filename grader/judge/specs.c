/* specs.c: the table of every assignment's spec, the one list the judge reads. */
#include "spec.h"

extern const judge_spec judge_spec_01, judge_spec_02, judge_spec_03, judge_spec_04, judge_spec_05;

const judge_spec *const judge_specs[] = {&judge_spec_01, &judge_spec_02, &judge_spec_03, &judge_spec_04, &judge_spec_05};
const int judge_n_specs = (int)(sizeof judge_specs / sizeof *judge_specs);
