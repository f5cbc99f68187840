// course_symbol.cu: an inspector fixture that carries the course's CPU scan under its own name, scan_cpu_i32 (pasted,
// not included): refused, with the symbol named. Static helpers of its own with course-like names are its business.
#include <stddef.h>
static int image_rows(int n) { return n; }
void scan_cpu_i32(const int *in, int *out, size_t n) {
  int sum = 0;
  for (size_t i = 0; i < n; i++) out[i] = sum, sum += in[i] + image_rows(0);
}
