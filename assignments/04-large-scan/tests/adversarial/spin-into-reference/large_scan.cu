// Adversarial attempt 04-spin-into-reference (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: one honest scan a call (its honest part), and a kernel spinning
// 5 ms on a non-blocking stream of its own, left running into the reference's
// turn to slow the reference's samples down. The runner's idle wait would
// time the spin in the student's window, so a redirected device backend
// (common/redirect04.cuh) has the timer wait for the default stream only.
//
// Why it gains nothing: before the judge times the reference, it sends the
// student's runner IDLE, which the runner loop (course code) answers once the
// device is idle: the spin ends there, and IDLE -> QUIET is on the judge's
// clock, so the spin's time beyond the reference's probe is charged to the
// student's samples. In a duel on n2^24 it is timed at 3 x the reference or
// more (the table's "nogain:3"). Once the runner's table and the pointer to it
// are read-only (issue 39, item 3), the redirection's write ends the runner
// instead (judge exit 5). On a019dd7's judge the spin ran in the reference's
// turn, and the student was timed at one scan a call.
#define ADV_REDIRECT ADV_REDIRECT_STREAM
#include "../common/redirect04.cuh"
