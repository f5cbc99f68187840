/* banks.h: shared-memory bank conflicts of one warp access, on the GPUs the
 * course supports (sm_75..sm_90): 32 banks of 4 bytes, 4-byte word w in bank
 * w % 32. Used by 03's CPU model and lecture 03's stride example, and tested
 * in test_lib.c. */
#ifndef SCANLAB_BANKS_H
#define SCANLAB_BANKS_H

#ifdef __cplusplus
extern "C" {
#endif

enum { BANK_COUNT = 32, BANK_WARP = 32 };

/* The n-way conflict of one warp's access of 4-byte words: lane l touches word
 * lane_word[l] (a negative word: the lane is inactive). n is the most distinct
 * words that fall into one bank; lanes that touch the same word are one access
 * (a broadcast for reads). The access takes n passes; 0 when no lane is active.
 * When bank is not NULL it receives the first bank that reaches n. */
int bank_ways(const int lane_word[BANK_WARP], int *bank);

#ifdef __cplusplus
}
#endif
#endif
