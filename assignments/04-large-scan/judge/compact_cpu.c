/* compact_cpu.c: sequential find_repeats, one comparison per adjacent pair. */
#include "compact_cpu.h"

size_t compact_cpu_repeats(const uint32_t *a, size_t n, uint32_t *indices) {
  size_t count = 0;
  for (size_t i = 0; i + 1 < n; i++)
    if (a[i] == a[i + 1]) {
      if (indices) indices[count] = (uint32_t)i;
      count++;
    }
  return count;
}
