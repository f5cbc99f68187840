// Adversarial attempt 04-run-reference (assignments/04-large-scan/tests/adversarial/README.md).
//
// The trick: let the course's own reference runner do the work. The attempt
// starts assignments/04-large-scan/ref/reference in --runner-protocol mode on
// pipes and a memfd of its own, speaks the judge's protocol to it (with a copy
// of the course's wire.h beside it, as a student may copy it, since the build's
// include path holds no course folder; wire_send/wire_recv are in the runner
// library) on this very call's input, and copies the reference's output into
// d_out: without the sandbox this passes every case. Before that it tries the blunt ways:
// system() and popen() of the reference, fork + execv; after it, an execv of
// the reference in place of the runner itself.
//
// Why it gets nothing: no process can be started (execve, fork, vfork and
// non-thread clone are EPERM, clone3 ENOSYS: system, popen and posix_spawn all
// fail). Nothing is written: ok=0, wrong in every call ("wrong in 5 of 5 calls" on n1025). A line
// "ADVERSARIAL-BREACH" on stderr would mean a process started.
//
// adversarial.sh copies: grader/protocol/wire.h
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "large_scan.h"
#include "wire.h"
#include "../common/forge.h"
#include "../common/honest04.cuh"

extern char **environ;

#define ADV_REF "assignments/04-large-scan/ref/reference"
enum { ADV_FIND_REPEATS = 4 }; // the runner's variant index of find_repeats (variants.h)

// The reference as a runner of our own: one call of `variant` on d_in, its
// outputs into out[0..n_out). 0 when the reference did the work.
static int adv_reference_call(int variant, const unsigned *d_in, size_t n, unsigned *const out[], int n_out) {
  int to[2] = {-1, -1}, from[2] = {-1, -1};
  if (pipe(to) || pipe(from)) return -1;
  int mfd = (int)syscall(SYS_memfd_create, "adv", 0);
  size_t bytes = n * sizeof(unsigned), room = (bytes + 255) / 256 * 256 + 256;
  size_t slot = room * (size_t)(1 + n_out);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to[0], WIRE_FD_CMD);
  posix_spawn_file_actions_adddup2(&fa, from[1], WIRE_FD_REPLY);
  posix_spawn_file_actions_adddup2(&fa, mfd, WIRE_FD_SHM);
  char *argv[] = {(char *)ADV_REF, (char *)"--runner-protocol", (char *)"--no-sandbox", NULL};
  pid_t pid;
  int rc = mfd < 0 || ftruncate(mfd, (off_t)slot) ? -1 : posix_spawn(&pid, ADV_REF, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(to[0]), close(from[1]);
  if (rc) {
    close(to[1]), close(from[0]);
    if (mfd >= 0) close(mfd);
    return -1;
  }
  adv_breach("posix_spawn started the reference runner", ADV_REF);
  char *shm = (char *)mmap(NULL, slot, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
  static wire_msg m;
  int ok = shm != MAP_FAILED && !wire_recv(from[0], &m, 60000) && m.op == WIRE_HELLO;
  if (ok) {
    memset(&m, 0, sizeof m);
    m.magic = WIRE_MAGIC, m.op = WIRE_CASE, m.seq = 1;
    wire_case *c = &m.u.kase;
    c->variant = variant, c->n_in = 1, c->n_out = (uint32_t)n_out, c->batch = 1, c->n = n;
    c->slot_bytes = c->shm_bytes = slot;
    c->in[0] = (wire_buf){0, bytes, bytes ? bytes : 4};
    for (int i = 0; i < n_out; i++) {
      uint64_t b = i == 0 ? bytes : sizeof(unsigned);
      c->out[i] = (wire_buf){room * (uint64_t)(1 + i), b, b ? b : 4};
    }
    ok = !wire_send(to[1], &m) && !wire_recv(from[0], &m, 60000) && m.op == WIRE_READY;
  }
  if (ok && bytes) ok = cudaMemcpy(shm, d_in, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
  if (ok) {
    memset(&m.u, 0, sizeof m.u);
    m.op = WIRE_RUN, m.seq = 2, m.u.run.calls = 1;
    ok = !wire_send(to[1], &m) && !wire_recv(from[0], &m, 60000) && m.op == WIRE_DONE;
  }
  for (int i = 0; ok && i < n_out; i++) {
    size_t b = i == 0 ? bytes : sizeof(unsigned);
    if (b) ok = cudaMemcpy(out[i], shm + room * (size_t)(1 + i), b, cudaMemcpyHostToDevice) == cudaSuccess;
  }
  m.op = WIRE_QUIT, m.seq = 3;
  (void)wire_send(to[1], &m);
  close(to[1]), close(from[0]), close(mfd);
  if (shm != MAP_FAILED) munmap(shm, slot);
  waitpid(pid, NULL, 0);
  return ok ? 0 : -1;
}

static int adv_run_reference(int variant, const unsigned *d_in, size_t n, unsigned *const out[], int n_out) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "%s --variant decoupled_lookback --n %zu --reps 1 > /dev/null 2>&1", ADV_REF, n);
  int rc = system(cmd);
  if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) != 127) adv_breach("system() ran the reference", cmd);
  FILE *p = popen(ADV_REF " --list", "r");
  if (p) {
    char line[256];
    if (fgets(line, sizeof line, p)) adv_breach("popen() read the reference's output", line);
    pclose(p);
  }
  pid_t pid = fork();
  if (pid == 0) {
    char *argv[] = {(char *)ADV_REF, (char *)"--list", NULL};
    execv(ADV_REF, argv);
    _exit(127);
  }
  if (pid > 0) adv_breach("fork() made a child", "then execv of the reference"), waitpid(pid, NULL, 0);
  return adv_reference_call(variant, d_in, n, out, n_out);
}

// Last resort: become the reference. It would inherit the judge's pipes.
static void adv_become_reference(void) {
  char *argv[] = {(char *)ADV_REF, (char *)"--runner-protocol", NULL};
  execv(ADV_REF, argv);
}

size_t exclusive_scan_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, size_t n, void *d_work) {
  (void)d_work;
  unsigned *out[1] = {d_out};
  if (adv_run_reference(0, d_in, n, out, 1)) adv_become_reference();
  return cudaSuccess;
}

ADV_UNGRADED_SCANS()

size_t find_repeats_workspace(size_t n) { return n ? 16 : 0; }

cudaError_t find_repeats(const unsigned *d_in, size_t n, unsigned *d_indices, unsigned *d_count, void *d_work) {
  (void)d_work;
  unsigned *out[2] = {d_indices, d_count};
  if (adv_run_reference(ADV_FIND_REPEATS, d_in, n, out, 2)) adv_become_reference();
  return cudaSuccess;
}
