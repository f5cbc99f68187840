/* outputs.h: the judge's files of one call's outputs: --out FILE (raw
 * little-endian elements, or an image as PPM/PNG by the extension) and
 * --save-failed DIR (CASE.student, CASE.expected and CASE.diff of the first
 * wrong frame of an image case, each .png and .ppm, for the results folder). */
#ifndef SCANLAB_OUTPUTS_H
#define SCANLAB_OUTPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"

/* 0, or -1 with a one-line reason (2: the path is unusable, 3: a write failed in *code). */
int outputs_write(const char *path, const spec_buf *b, const void *data, int *code, char *err, size_t cap);
int outputs_save_failed(const char *dir, const char *case_name, const spec_buf *b, const void *got, const void *want,
                        const uint8_t *mask, char *err, size_t cap);

#endif
