/* submission.h: a student's folder taken as data: checked, copied into a private
 * staging folder, and hashed from the very bytes copied.
 *
 * Every entry of the folder must be a regular file (not a symbolic link, a
 * folder or a device) whose name holds only SUBMISSION_NAME_CHARS; the folder
 * itself must not be a symbolic link. Anything else refuses the whole
 * submission with one line naming the entry, so that no name a student chose
 * ever reaches make or a shell, and no file outside the folder is read. The
 * staged copy is what the build compiles (build.h): what is compiled is
 * exactly what was hashed, even if the folder changes meanwhile. */
#ifndef SCANLAB_SUBMISSION_H
#define SCANLAB_SUBMISSION_H

#include <stddef.h>

#include "sha256.h"

#define SUBMISSION_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"
#define SUBMISSION_NAME_MAX 128
#define SUBMISSION_MAX_FILES 64
#define SUBMISSION_MAX_BYTES (16L << 20) /* all files together */

typedef struct submission {
  char names[SUBMISSION_MAX_FILES][SUBMISSION_NAME_MAX]; /* sorted */
  int n;
} submission;

typedef enum submission_status {
  SUBMISSION_OK,
  SUBMISSION_REFUSED, /* why: "refused: ..." */
  SUBMISSION_MISSING, /* why: "missing file NAME: ..." */
  SUBMISSION_ERROR    /* the staging folder could not be written: why says so */
} submission_status;

/* Checks folder dir (called label in messages, e.g. "starter/NN-name"),
 * makes stage afresh (mode 0700; an earlier stage is removed) and copies every
 * file of dir into it, adding each file's name, size and bytes to h in name
 * order. student, the file the handout names, must be one of them. */
submission_status submission_stage(const char *dir, const char *label, const char *student, const char *stage, submission *s,
                                   sha256 *h, char *why, size_t cap);

/* Removes a staging folder made by submission_stage (its plain files, then it).
 * 0, or -1 with errno (ENOENT is not an error). */
int submission_clear(const char *stage);

#endif
