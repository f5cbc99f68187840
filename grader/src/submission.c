/* submission.c: a student's folder checked, staged and hashed (submission.h). */
#include "submission.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int name_ok(const char *name) {
  size_t n = strlen(name);
  return n > 0 && n < SUBMISSION_NAME_MAX && strspn(name, SUBMISSION_NAME_CHARS) == n;
}

/* A name as a message shows it: printable ASCII kept, every other byte as \xNN. */
static void shown(const char *name, char *out, size_t cap) {
  size_t len = 0;
  for (const unsigned char *c = (const unsigned char *)name; *c && len + 5 < cap; c++)
    len += (size_t)(*c >= 0x20 && *c < 0x7f ? snprintf(out + len, cap - len, "%c", *c) : snprintf(out + len, cap - len, "\\x%02x", *c));
  out[len] = 0;
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int submission_clear(const char *stage) {
  DIR *d = opendir(stage);
  if (!d) return errno == ENOENT ? 0 : -1;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && unlinkat(dirfd(d), e->d_name, 0) != 0) rc = -1;
  closedir(d);
  return rmdir(stage) == 0 || errno == ENOENT ? rc : -1;
}

/* Copies the file name of folder dfd into stage_fd, adding it to h. Returns
 * SUBMISSION_OK, or a status with why. *total counts the bytes so far. */
static submission_status copy_one(int dfd, const char *name, const char *label, int stage_fd, sha256 *h, long *total, char *why,
                                  size_t cap) {
  int in = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) { /* changed since it was listed */
    if (in >= 0) close(in);
    snprintf(why, cap, "refused: %s/%s cannot be read as a plain file: submit regular files only", label, name);
    return SUBMISSION_REFUSED;
  }
  int out = openat(stage_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) {
    close(in);
    snprintf(why, cap, "not built: cannot write the staged copy of %s: %s", name, strerror(errno));
    return SUBMISSION_ERROR;
  }
  sha256_add_str(h, name);
  char buf[65536], size[32];
  snprintf(size, sizeof size, "%lld", (long long)st.st_size);
  sha256_add_str(h, size);
  long long copied = 0;
  ssize_t got;
  submission_status status = SUBMISSION_OK;
  while (status == SUBMISSION_OK && (got = read(in, buf, sizeof buf)) > 0) {
    copied += got;
    *total += got;
    if (*total > SUBMISSION_MAX_BYTES) {
      snprintf(why, cap, "refused: %s holds more than %ld MiB: submit only your source files", label, SUBMISSION_MAX_BYTES >> 20);
      status = SUBMISSION_REFUSED;
    } else if (write(out, buf, (size_t)got) != got) {
      snprintf(why, cap, "not built: cannot write the staged copy of %s: %s", name, strerror(errno));
      status = SUBMISSION_ERROR;
    } else {
      sha256_add(h, buf, (size_t)got);
    }
  }
  if (status == SUBMISSION_OK && copied != st.st_size) { /* read failed, or the file changed under the copy */
    snprintf(why, cap, "refused: %s/%s changed while it was read: grade a folder nothing writes to", label, name);
    status = SUBMISSION_REFUSED;
  }
  close(in);
  if (close(out) != 0 && status == SUBMISSION_OK) {
    snprintf(why, cap, "not built: cannot write the staged copy of %s: %s", name, strerror(errno));
    status = SUBMISSION_ERROR;
  }
  return status;
}

/* The folder's names, sorted, then checked one by one (the first bad one in name order is named). */
static submission_status list_names(int dfd, const char *label, submission *s, char *why, size_t cap) {
  DIR *d = fdopendir(dup(dfd));
  if (!d) return snprintf(why, cap, "not built: cannot read %s: %s", label, strerror(errno)), SUBMISSION_ERROR;
  char **all = NULL;
  size_t n = 0, room = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n <= 4 * SUBMISSION_MAX_FILES) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (n == room) {
      char **more = realloc(all, (room = room ? 2 * room : 16) * sizeof *all);
      if (!more) break;
      all = more;
    }
    if (!(all[n] = strdup(e->d_name))) break;
    n++;
  }
  closedir(d);
  qsort(all, n, sizeof *all, cmp_name);
  submission_status status = SUBMISSION_OK;
  char show[3 * SUBMISSION_NAME_MAX + 8];
  for (size_t i = 0; i < n; i++) {
    const char *name = all[i];
    struct stat st;
    shown(name, show, sizeof show);
    if (status != SUBMISSION_OK) {
    } else if (!name_ok(name)) {
      snprintf(why, cap, "refused: %s/%s: a file name may hold only letters, digits, '.', '_' and '-' (rename or remove it)", label, show);
      status = SUBMISSION_REFUSED;
    } else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      snprintf(why, cap, "not built: cannot read %s/%s: %s", label, show, strerror(errno));
      status = SUBMISSION_ERROR;
    } else if (S_ISLNK(st.st_mode)) {
      snprintf(why, cap, "refused: %s/%s is a symbolic link: submit the file itself", label, show);
      status = SUBMISSION_REFUSED;
    } else if (!S_ISREG(st.st_mode)) {
      snprintf(why, cap, "refused: %s/%s is not a regular file (%s): submit plain files only", label, show,
               S_ISDIR(st.st_mode) ? "a folder" : "a device, pipe or socket");
      status = SUBMISSION_REFUSED;
    } else if (s->n == SUBMISSION_MAX_FILES) {
      snprintf(why, cap, "refused: %s holds more than %d files: submit only your source files", label, SUBMISSION_MAX_FILES);
      status = SUBMISSION_REFUSED;
    } else {
      snprintf(s->names[s->n++], SUBMISSION_NAME_MAX, "%s", name);
    }
    free(all[i]);
  }
  free(all);
  return status;
}

submission_status submission_stage(const char *dir, const char *label, const char *student, const char *stage, submission *s,
                                   sha256 *h, char *why, size_t cap) {
  memset(s, 0, sizeof *s);
  if (submission_clear(stage) != 0)
    return snprintf(why, cap, "not built: cannot remove the earlier staging folder %s: %s", stage, strerror(errno)), SUBMISSION_ERROR;
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) {
    struct stat st;
    if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
      return snprintf(why, cap, "refused: %s is a symbolic link: submit the folder itself", label), SUBMISSION_REFUSED;
    if (errno == ENOENT)
      return snprintf(why, cap, "missing file %s: there is no folder %s", student, label), SUBMISSION_MISSING;
    return snprintf(why, cap, "not built: cannot open %s: %s", label, strerror(errno)), SUBMISSION_ERROR;
  }
  submission_status status = list_names(dfd, label, s, why, cap);
  int found = 0;
  for (int i = 0; status == SUBMISSION_OK && i < s->n; i++) found |= !strcmp(s->names[i], student);
  if (status == SUBMISSION_OK && !found) {
    snprintf(why, cap, "missing file %s: %s has no %s, the file the handout names", student, label, student);
    status = SUBMISSION_MISSING;
  }
  if (status == SUBMISSION_OK && mkdir(stage, 0700) != 0) {
    snprintf(why, cap, "not built: cannot make the staging folder %s: %s", stage, strerror(errno));
    status = SUBMISSION_ERROR;
  }
  int stage_fd = status == SUBMISSION_OK ? open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
  long total = 0;
  for (int i = 0; status == SUBMISSION_OK && i < s->n; i++)
    status = copy_one(dfd, s->names[i], label, stage_fd, h, &total, why, cap);
  if (stage_fd >= 0) close(stage_fd);
  close(dfd);
  if (status != SUBMISSION_OK) {
    submission_clear(stage);
    s->n = 0;
  }
  return status;
}
