/* scan_cpu.c: sequential segmented scan, n - 1 additions per segment. */
#include "scan_cpu.h"

void scan_cpu_i32(const int32_t *in, int32_t *out, size_t n, size_t segment, scan_kind kind) {
  uint32_t sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (segment && i % segment == 0) sum = 0;
    uint32_t v = (uint32_t)in[i]; /* read before writing: in may equal out */
    if (kind == SCAN_INCLUSIVE) sum += v;
    out[i] = (int32_t)sum;
    if (kind == SCAN_EXCLUSIVE) sum += v;
  }
}
