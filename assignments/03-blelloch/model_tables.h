// model_tables.h: what the table program (model_tables.cu, linked with the
// student's file, sandboxed) sends the CPU model (model.cu, trusted) on
// descriptor 3. Nothing but values: every word is a little-endian int32.
//
//   header   MT_MAGIC, MT_VERSION, MT_N_PADDED, MT_N_ELEMENT, MT_N_TREE
//   padded   padded_index(i)             i = 0..TILE-1                                  (MT_N_PADDED)
//   element  thread_element(t, k, tree)  tree = 2, 4, ..., TILE; t = 0..tree/2-1; k = 0, 1 (MT_N_ELEMENT)
//            at mt_element_at(t, k, tree): the trees before `tree` take 2 + 4 + ... + tree/2 = tree - 2 words
//   tree     tree_size(len)              len = 1..TILE, at len - 1                     (MT_N_TREE)
//
// These are all the arguments the model asks about: padded_index only for
// elements 0..TILE-1 (the words check, and the sweeps' and moves' elements
// 0..tree-1), thread_element only for the threads t < tree/2 of the trees
// tree_size gives that keep its contract (a power of two, 2..TILE), tree_size
// for the lengths 1..TILE. Each lies in its function's contract (blelloch.h).
#ifndef MODEL_TABLES_H
#define MODEL_TABLES_H

#include "blelloch.h"

enum {
  MT_FD = 3,                            // the table program's descriptor for the tables
  MT_MAGIC = 0x54333042,                // "B03T" as little-endian bytes
  MT_VERSION = 1,
  MT_HEADER_WORDS = 5,
  MT_N_PADDED = TILE,
  MT_N_ELEMENT = 2 * TILE - 2,          // sum over the trees 2..TILE of tree/2 threads * 2 elements
  MT_N_TREE = TILE,
  MT_WORDS = MT_HEADER_WORDS + MT_N_PADDED + MT_N_ELEMENT + MT_N_TREE,
  MT_BYTES = 4 * MT_WORDS,
};

// Where thread_element(t, k, tree) lies in the element table (tree a power of
// two in 2..TILE, 0 <= t < tree/2, k = 0 or 1).
static inline int mt_element_at(int t, int k, int tree) { return tree - 2 + 2 * t + k; }

#endif
