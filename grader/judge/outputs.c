/* outputs.c: --out and --save-failed (outputs.h). */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "image.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* An image as PNG (RGBA) or PPM (RGB), by the file's extension. */
static int write_image(const char *path, const image *img, char *err, size_t cap) {
  return ends_with(path, ".png") ? image_write_png(img, path, 1, err, cap) : image_write_ppm(img, path, err, cap);
}

int outputs_write(const char *path, const spec_buf *b, const void *data, int *code, char *err, size_t cap) {
  *code = 2;
  if (b->type == ELEM_RGBA32F) {
    if (!ends_with(path, ".png") && !ends_with(path, ".ppm"))
      return snprintf(err, cap, "--out %s: an image is written as .png or .ppm; name the file so", path), -1;
    image im = {b->width, b->height, (float *)data};
    *code = 3;
    return write_image(path, &im, err, cap) ? -1 : 0;
  }
  size_t bytes = b->count * elem_bytes(b->type);
  FILE *f = fopen(path, "wb");
  if (!f) return snprintf(err, cap, "--out %s: %s", path, strerror(errno)), -1;
  *code = 3;
  int bad = fwrite(data, 1, bytes, f) != bytes;
  if (fclose(f) != 0 || bad) return snprintf(err, cap, "--out %s: write failed", path), -1;
  return 0;
}

int outputs_save_failed(const char *dir, const char *case_name, const spec_buf *b, const void *got, const void *want,
                        const uint8_t *mask, char *err, size_t cap) {
  if (b->type != ELEM_RGBA32F || !want) return 0; /* only images are saved */
  image student = {b->width, b->height, (float *)got};
  image expected = {b->width, b->height, (float *)want};
  image diff = {0, 0, NULL};
  char path[1024];
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) return snprintf(err, cap, "--save-failed %s: %s", dir, strerror(errno)), -1;
  if (image_diff(&student, &expected, mask, b->tol, &diff, err, cap) < 0) return -1;
  const image *imgs[3] = {&student, &expected, &diff};
  static const char *const WHAT[3] = {"student", "expected", "diff"};
  int rc = 0;
  for (int i = 0; i < 3 && !rc; i++)
    for (int png = 0; png < 2 && !rc; png++) {
      snprintf(path, sizeof path, "%s/%s.%s.%s", dir, case_name, WHAT[i], png ? "png" : "ppm");
      rc = write_image(path, imgs[i], err, cap);
    }
  image_free(&diff);
  return rc ? -1 : 0;
}
