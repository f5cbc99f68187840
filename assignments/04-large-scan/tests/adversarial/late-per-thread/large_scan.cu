// Adversarial attempt 04-late-per-thread (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: the honest work, then 0.5 ms more of it, on cudaStreamPerThread,
// and the call returns at once, hoping the timer stops when the launches are
// made rather than when the work is done.
//
// Why it gains nothing: the runner's window ends only when the device is idle
// (every stream, graph and host callback), and the judge times GO -> DONE on
// its own clock, so every sample is at least 0.5 ms a call: the table's
// "slow:0.45" verdict (right, and its fastest sample over 0.45 ms a call).
#define ADV_LATE ADV_LATE_PER_THREAD
#include "../common/late04.cuh"
