/* banks.c: the n-way bank conflict of one warp access (banks.h). */
#include "banks.h"

int bank_ways(const int lane_word[BANK_WARP], int *bank) {
  int count[BANK_COUNT] = {0}, worst = 0, worst_bank = 0;
  for (int l = 0; l < BANK_WARP; l++) {
    int w = lane_word[l];
    if (w < 0) continue;
    int seen = 0;
    for (int m = 0; m < l && !seen; m++) seen = lane_word[m] == w; /* the same word: one access */
    if (seen) continue;
    int b = w % BANK_COUNT;
    if (++count[b] > worst) worst = count[b], worst_bank = b;
  }
  if (bank) *bank = worst_bank;
  return worst;
}
