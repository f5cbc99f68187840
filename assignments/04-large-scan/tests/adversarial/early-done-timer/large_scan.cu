// Adversarial attempt 04-early-done-timer (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: a redirected device backend (common/redirect04.cuh) whose timer
// returns after about a device copy's time a call without waiting for the
// device, so the runner sends DONE while the call's 8 honest scans (its honest
// part) still run on the default stream; the download, which waits for the
// default stream, hands back right outputs.
//
// Why it gains nothing: the judge's clock is on DONE -> OUT too, and what the
// student's download takes beyond the reference's (less the phase noise) is
// charged to its samples. In a duel on n2^24 it is then timed at 3 x the
// reference or more (the table's "nogain:3"). Once the runner's table and the
// pointer to it are read-only (issue 39, item 3), the redirection's write ends
// the runner instead (judge exit 5). On a019dd7's judge it was timed at about a
// device copy a call.
#define ADV_REDIRECT ADV_REDIRECT_TIMER
#include "../common/redirect04.cuh"
