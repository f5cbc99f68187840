// thrust_alias.cu: an inspector fixture that reaches Thrust through a namespace alias (no "thrust::" in a call).
#include <thrust/scan.h>
#include <thrust/execution_policy.h>
namespace th = thrust;
void fx_scan(const unsigned *in, unsigned *out, int n) { th::exclusive_scan(th::device, in, in + n, out); }
