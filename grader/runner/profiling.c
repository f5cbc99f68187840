/* profiling.c: a Landlock domain for a runner under Nsight Compute (profiling.h). */
#include "profiling.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "rawsys.h"

/* Landlock's interface, spelled here so that old headers do not matter (Linux 5.13+). */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
enum { LL_CREATE_RULESET_VERSION = 1, LL_RULE_PATH_BENEATH = 1 };
#define LL_EXECUTE (1ull << 0)
#define LL_WRITE_FILE (1ull << 1)
#define LL_READ_FILE (1ull << 2)
#define LL_READ_DIR (1ull << 3)
#define LL_REMOVE_DIR (1ull << 4)
#define LL_REMOVE_FILE (1ull << 5)
#define LL_MAKE_CHAR (1ull << 6)
#define LL_MAKE_DIR (1ull << 7)
#define LL_MAKE_REG (1ull << 8)
#define LL_MAKE_BLOCK (1ull << 11)
#define LL_ALL_V1 ((1ull << 13) - 1) /* execute .. make_sym */
#define LL_REFER (1ull << 13)        /* ABI 2 */
#define LL_TRUNCATE (1ull << 14)     /* ABI 3 */

struct ll_ruleset_attr {
  uint64_t handled_access_fs; /* the first field of every ABI's struct: the kernel takes a shorter one */
};
struct ll_path_beneath {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

static int fail(char *err, size_t cap, const char *what, long r) {
  snprintf(err, cap, "sandbox: profiling: %s: %s", what, strerror((int)-r));
  return -1;
}

/* Allows `access` (within what the ruleset handles) beneath path, or on the file path; a
 * path that does not exist is skipped. */
static int allow(long ruleset, const char *path, uint64_t access, uint64_t handled, char *err, size_t cap) {
  long fd = sandbox_raw3(__NR_openat, AT_FDCWD, (long)path, O_PATH | O_CLOEXEC);
  if (fd == -ENOENT) return 0;
  if (fd < 0) return fail(err, cap, path, fd);
  struct ll_path_beneath rule = {access & handled, (int32_t)fd};
  long r = sandbox_raw6(__NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, (long)&rule, 0, 0, 0);
  sandbox_raw3(__NR_close, fd, 0, 0);
  if (r == -EINVAL) { /* a file, not a folder: only the rights a file can have */
    fd = sandbox_raw3(__NR_openat, AT_FDCWD, (long)path, O_PATH | O_CLOEXEC);
    if (fd < 0) return fail(err, cap, path, fd);
    rule = (struct ll_path_beneath){access & handled & (LL_READ_FILE | LL_WRITE_FILE | LL_EXECUTE | LL_TRUNCATE), (int32_t)fd};
    r = sandbox_raw6(__NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, (long)&rule, 0, 0, 0);
    sandbox_raw3(__NR_close, fd, 0, 0);
  }
  return r < 0 ? fail(err, cap, path, r) : 0;
}

/* The GPU's device files, which the driver and ncu open for writing (ioctl needs no right). */
static int allow_devices(long ruleset, uint64_t handled, char *err, size_t cap) {
  static const char *const fixed[] = {"/dev/null", "/dev/zero", "/dev/urandom"};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (allow(ruleset, fixed[i], LL_READ_FILE | LL_WRITE_FILE, handled, err, cap)) return -1;
  DIR *d = opendir("/dev");
  if (!d) return 0;
  int rc = 0;
  for (struct dirent *e; !rc && (e = readdir(d));) {
    if (strncmp(e->d_name, "nvidia", 6)) continue;
    char path[300];
    snprintf(path, sizeof path, "/dev/%s", e->d_name);
    rc = allow(ruleset, path, LL_READ_FILE | LL_WRITE_FILE | LL_READ_DIR, handled, err, cap);
  }
  closedir(d);
  return rc;
}

int sandbox_profiling_files(const char *dir, char *err, size_t cap) {
  long abi = sandbox_raw3(__NR_landlock_create_ruleset, 0, 0, LL_CREATE_RULESET_VERSION);
  if (abi < 1) {
    snprintf(err, cap, "sandbox: profiling needs Landlock (Linux 5.13+, enabled), which this kernel %s",
             abi == -ENOSYS ? "lacks" : abi == -EOPNOTSUPP ? "has turned off" : "refuses");
    return -1;
  }
  uint64_t handled = LL_ALL_V1 | (abi >= 2 ? LL_REFER : 0) | (abi >= 3 ? LL_TRUNCATE : 0);
  /* No device nodes, even in its own folder: as root, a block device made there would be the disk. */
  uint64_t reading = LL_EXECUTE | LL_READ_FILE | LL_READ_DIR, all = handled & ~(LL_MAKE_CHAR | LL_MAKE_BLOCK);
  uint64_t scratch = LL_READ_FILE | LL_WRITE_FILE | LL_READ_DIR | LL_MAKE_REG | LL_REMOVE_FILE | LL_TRUNCATE;
  struct ll_ruleset_attr attr = {handled};
  long ruleset = sandbox_raw3(__NR_landlock_create_ruleset, (long)&attr, sizeof attr, 0);
  if (ruleset < 0) return fail(err, cap, "landlock_create_ruleset", ruleset);
  int rc = allow(ruleset, "/", reading, handled, err, cap) || allow(ruleset, dir, all, handled, err, cap) ||
           allow(ruleset, "/dev/shm", scratch, handled, err, cap) ||
           allow(ruleset, "/tmp/nsight-compute-lock", LL_READ_FILE | LL_WRITE_FILE | LL_TRUNCATE, handled, err, cap) ||
           allow_devices(ruleset, handled, err, cap);
  if (!rc) {
    long r = sandbox_raw6(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0);
    if (r == 0) r = sandbox_raw3(__NR_landlock_restrict_self, ruleset, 0, 0);
    if (r != 0) rc = fail(err, cap, "landlock_restrict_self", r);
  }
  sandbox_raw3(__NR_close, ruleset, 0, 0);
  return rc ? -1 : (int)abi;
}
