// probe.cu (instructor tooling, a record: not built by make): where the 04
// reference's rounds spend their clock cycles. probe.patch adds counters to a
// copy of solutions/04-large-scan at commit 9706e76 (the look-back's polls,
// windows, distance and cycles; each round's phases; when each tile's sum
// and prefix were published). On a GPU host:
//   git archive 9706e76 solutions/04-large-scan assignments/04-large-scan/large_scan.h | tar x -C /tmp/p
//   cd /tmp/p && patch -p1 < tools/probe-04/probe.patch
//   nvcc -O3 -std=c++17 -arch=sm_90 -Isolutions/04-large-scan -Iassignments/04-large-scan probe.cu -o probe
//   ./probe 0   (the scan; 1: find_repeats) at 2^24, 2^26 and 2^28
// What it found on the H100 is in docs/results/tuning-04-h100.txt (2026-11-25, night).
#include "large_scan.cu"
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
template <class T> static void stats(const char *name, std::vector<T> v) {
  std::sort(v.begin(), v.end()); double s = 0; for (auto x : v) s += (double)x;
  size_t m = v.size();
  printf("  %-8s mean %10.1f  p10 %10.1f  p50 %10.1f  p90 %10.1f  p99 %10.1f  max %10.1f\n", name, s / m, (double)v[m / 10], (double)v[m / 2], (double)v[m * 9 / 10], (double)v[m * 99 / 100], (double)v[m - 1]);
}
int main(int argc, char **argv) {
  int op = argc > 1 ? atoi(argv[1]) : 0;
  for (int lg : {24, 26, 28}) {
    size_t n = (size_t)1 << lg; unsigned tiles = (unsigned)ls_tiles(n);
    unsigned *in, *out, *cnt; void *work; size_t wb = op ? find_repeats_workspace(n) : exclusive_scan_workspace(n);
    CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMalloc(&work, wb)); CK(cudaMalloc(&cnt, 4));
    std::vector<unsigned> h(n); srand(1); for (size_t i = 0; i < n; i++) h[i] = op ? (rand() % 16 == 0 ? (i ? h[i-1] : 0) : rand()) : rand() & 0xff;
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(work, 0xA5, wb));
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    float ms, best = 1e9, bestc = 1e9;
    for (int r = 0; r < 20; r++) {
      CK(cudaEventRecord(a)); CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
      CK(cudaEventElapsedTime(&ms, a, b)); bestc = std::min(bestc, ms);
      CK(cudaEventRecord(a)); CK(op ? find_repeats(in, n, out, cnt, work) : exclusive_scan(in, out, n, work)); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
      CK(cudaEventElapsedTime(&ms, a, b)); best = std::min(best, ms);
    }
    std::vector<unsigned> o(8); CK(cudaMemcpy(o.data(), out + n - 8, 32, cudaMemcpyDeviceToHost));
    unsigned long long ref = 0; if (!op) for (size_t i = 0; i < n - 1; i++) ref += h[i];
    printf("== %s n=2^%d tiles=%u: best ms %.4f, copy %.4f (%.3fx)%s\n", op ? "repeats" : "scan", lg, tiles, best, bestc, best / bestc,
           op ? "" : ((unsigned)ref == o[7] ? " right" : " WRONG"));
    unsigned T = std::min(tiles, (unsigned)LSP_MAX);
    std::vector<unsigned> polls(T), wins(T), dist(T); std::vector<long long> lb(T), ld(T), sc(T), wt(T), st(T);
    std::vector<unsigned long long> pub(T), pre(T), bs(4096), be(4096);
    CK(cudaMemcpyFromSymbol(polls.data(), lsp_polls, T * 4)); CK(cudaMemcpyFromSymbol(wins.data(), lsp_windows, T * 4));
    CK(cudaMemcpyFromSymbol(dist.data(), lsp_dist, T * 4)); CK(cudaMemcpyFromSymbol(lb.data(), lsp_lb, T * 8));
    CK(cudaMemcpyFromSymbol(ld.data(), lsp_ld, T * 8)); CK(cudaMemcpyFromSymbol(sc.data(), lsp_scan, T * 8));
    CK(cudaMemcpyFromSymbol(wt.data(), lsp_wait, T * 8)); CK(cudaMemcpyFromSymbol(st.data(), lsp_store, T * 8));
    CK(cudaMemcpyFromSymbol(pub.data(), lsp_pub, T * 8)); CK(cudaMemcpyFromSymbol(pre.data(), lsp_pre, T * 8));
    CK(cudaMemcpyFromSymbol(bs.data(), lsp_bstart, 4096 * 8)); CK(cudaMemcpyFromSymbol(be.data(), lsp_bend, 4096 * 8));
    unsigned grid; CK(ls_grid(op ? (const void *)ls_repeats : (const void *)ls_scan_packed, op ? LS_SMEM_REPEATS : LS_SMEM_SCAN, tiles, &grid));
    std::vector<long long> lat(T - 1); for (unsigned i = 1; i < T; i++) lat[i - 1] = (long long)(pre[i] - pub[i]);
    printf(" per look-back (clock cycles; polls, windows, distance to the PREFIX used):\n");
    stats("lb_cyc", std::vector<long long>(lb.begin() + 1, lb.end())); stats("polls", std::vector<unsigned>(polls.begin() + 1, polls.end()));
    stats("windows", std::vector<unsigned>(wins.begin() + 1, wins.end())); stats("dist", std::vector<unsigned>(dist.begin() + 1, dist.end()));
    printf(LS_CFG_RING ? " per round, thread 0 (cycles): ld = round start to loads in; scan = round start to the final barrier; wait = in it\n" : " per round, thread 0 (cycles): loads+transpose, scan+publish, look-back barrier, store+end\n");
    stats("ld", ld); stats("scan", sc); stats("wait", wt); stats("store", st);
    printf(" ns from a tile's aggregate to its prefix:\n"); stats("pub2pre", lat);
    unsigned long long s0 = *std::min_element(bs.begin(), bs.begin() + grid), s1 = *std::max_element(bs.begin(), bs.begin() + grid);
    unsigned long long e0 = *std::min_element(be.begin(), be.begin() + grid), e1 = *std::max_element(be.begin(), be.begin() + grid);
    printf(" grid %u: blocks start over %llu ns, end over %llu ns (first end %llu ns, last end %llu ns after the first start)\n", grid, s1 - s0, e1 - e0, e0 - s0, e1 - s0);
    // the last 16 tiles' timelines
    printf(" last tiles (ns after first start): tile pub pre\n");
    for (unsigned i = T - 6; i < T; i++) printf("   %u %llu %llu\n", i, pub[i] - s0, pre[i] - s0);
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(work)); CK(cudaFree(cnt));
  }
  return 0;
}
