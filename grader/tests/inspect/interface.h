// interface.h: the fixtures' "assignment header", which grader/inspect/inspect-student.sh reads for the names a file of this
// folder may define with external linkage (the fixtures do not include it: only the names count).
#ifndef FX_INTERFACE_H
#define FX_INTERFACE_H
#include <cuda_runtime.h>
#include <stddef.h>

cudaError_t fx_run(unsigned *x, unsigned n);
cudaError_t fx_scan(void *temp, size_t &bytes, const unsigned *in, unsigned *out, int n);

#endif
