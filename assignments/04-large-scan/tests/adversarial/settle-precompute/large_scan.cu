// Adversarial attempt 04-settle-precompute (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: a redirected device backend (common/redirect04.cuh) whose settle,
// which the runner calls after a batch's uploads and before the judge's GO,
// computes every call's scan into a buffer of the workspace (8 honest scans a
// call: its honest part); the timed call then makes one device copy of it,
// which is above the floor.
//
// Why it gains nothing: the judge times every step of a duel on its own clock,
// the student's and the reference's on the same batches, and charges what the
// student's steps take beyond the reference's (less the phase noise) to its
// samples: here RUN -> SET, the settle. In a duel on n2^24 it is then timed at
// 3 x the reference or more (the table's "nogain:3"). Once the runner's table
// and the pointer to it are read-only (issue 39, item 3), the redirection's
// write ends the runner instead (judge exit 5): no points either. On a019dd7's
// judge it was timed at about a device copy a call: the reference's time.
#define ADV_REDIRECT ADV_REDIRECT_SETTLE
#include "../common/redirect04.cuh"
