// model_tables.cu: the untrusted half of assignment 03's CPU model. Needs no GPU
// and makes no CUDA call.
//
// Linked with your blelloch.cu, compiled on its own (build/<src>/03-blelloch/
// model-tables), it enters the runner's sandbox (grader/runner/sandbox.h: no
// files by name, no new processes, no network) and then evaluates your
// padded_index, thread_element and tree_size (the host side of their
// __host__ __device__ definitions) over every argument the model asks about.
// It writes the values, and nothing else, to descriptor 3: a pipe that the
// model (model.cu, a trusted program that never links your file) made for it.
// The model does all the analysis and writes the result lines; this program
// holds no analysis and prints nothing, so whatever your functions write
// anywhere is never read as a verdict.
//
// The tables (model_tables.h: little-endian int32 words): a header (magic,
// version, the three lengths), then
//   padded_index(i)             for i = 0..TILE-1
//   thread_element(t, k, tree)  for tree = 2, 4, ..., TILE, t = 0..tree/2-1, k = 0, 1
//   tree_size(len)              for len = 1..TILE
// Exit 0 when all of it is written; 1 when the pipe takes it not; 2 when the
// sandbox cannot be entered.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

extern "C" {
#include "sandbox.h"
}
#include "blelloch.h"
#include "model_tables.h"

static unsigned char out[MT_BYTES];

static void put(size_t *at, int32_t v) {
  uint32_t u = (uint32_t)v;
  for (int b = 0; b < 4; b++) out[(*at)++] = (unsigned char)(u >> (8 * b));
}

int main(void) {
  // Killed by the filter (SIGSYS for another ABI), it leaves no core file behind.
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  char err[200];
  if (sandbox_enter(err, sizeof err)) {
    fprintf(stderr, "03-blelloch model-tables: cannot enter the sandbox: %s\n", err);
    return 2;
  }
  size_t at = 0;
  put(&at, MT_MAGIC);
  put(&at, MT_VERSION);
  put(&at, MT_N_PADDED);
  put(&at, MT_N_ELEMENT);
  put(&at, MT_N_TREE);
  for (int i = 0; i < TILE; i++) put(&at, padded_index(i));
  for (int tree = 2; tree <= TILE; tree *= 2)
    for (int t = 0; t < tree / 2; t++)
      for (int k = 0; k < 2; k++) put(&at, thread_element(t, k, tree));
  for (int len = 1; len <= TILE; len++) put(&at, tree_size(len));
  for (size_t done = 0; done < at;) {
    ssize_t w = write(MT_FD, out + done, at - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      fprintf(stderr, "03-blelloch model-tables: cannot write the tables to descriptor %d: %s\n", MT_FD,
              w < 0 ? strerror(errno) : "nothing written");
      return 1;
    }
    done += (size_t)w;
  }
  return 0;
}
