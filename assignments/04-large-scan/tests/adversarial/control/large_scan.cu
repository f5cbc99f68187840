// 04-control: the solution itself, included from solutions/ rather than copied.
// The control row: it must pass every case, which shows that the judge and the
// runner still grade honest work while the attempts around it try their tricks.
#include "../../../../../solutions/04-large-scan/large_scan.cu"
