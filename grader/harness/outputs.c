/* outputs.c: --out and --save-failed (driver.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "driver.h"
#include "image.h"

static const hx_output *first_image(const hx_io *io) {
  for (int i = 0; i < io->n_out; i++)
    if (io->out[i].type == HX_RGBA32F) return &io->out[i];
  return NULL;
}

static void *download_output(const hx_output *o) {
  size_t bytes = o->count * hx_type_bytes(o->type);
  void *host = hx_malloc(bytes);
  hx_download(host, o->dev, bytes);
  return host;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* An image as PNG (RGBA) or PPM (RGB), by the file's extension. */
static void write_image(const char *path, const image *img) {
  char err[300];
  int rc = ends_with(path, ".png") ? image_write_png(img, path, 1, err, sizeof err)
                                   : image_write_ppm(img, path, err, sizeof err);
  if (rc) hx_die(3, "%s", err);
}

void hx_write_out(const char *path, const hx_io *io) {
  if (io->n_out == 0) hx_die(2, "--out %s: this case has no output", path);
  const hx_output *img = first_image(io);
  if (img) {
    if (!ends_with(path, ".png") && !ends_with(path, ".ppm"))
      hx_die(2, "--out %s: an image is written as .png or .ppm; name the file so", path);
    image im = {img->width, img->height, (float *)download_output(img)};
    write_image(path, &im);
    return;
  }
  const hx_output *o = &io->out[0];
  void *host = download_output(o);
  size_t bytes = o->count * hx_type_bytes(o->type);
  FILE *f = fopen(path, "wb");
  if (!f) hx_die(2, "--out %s: %s", path, strerror(errno));
  if (fwrite(host, 1, bytes, f) != bytes || fclose(f) != 0) hx_die(3, "--out %s: write failed", path);
}

void hx_save_failed(const char *dir, const char *case_name, const hx_io *io) {
  const hx_output *o = first_image(io);
  if (!o || !o->expect) return; /* only images are saved */
  image student = {o->width, o->height, (float *)download_output(o)};
  image expected = {o->width, o->height, (float *)o->expect};
  image diff = {0, 0, NULL};
  char err[300], path[1024];
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) hx_die(2, "--save-failed %s: %s", dir, strerror(errno));
  if (image_diff(&student, &expected, o->mask, o->tol, &diff, err, sizeof err) < 0) hx_die(3, "--save-failed: %s", err);
  const image *imgs[3] = {&student, &expected, &diff};
  static const char *const WHAT[3] = {"student", "expected", "diff"};
  for (int i = 0; i < 3; i++)
    for (int png = 0; png < 2; png++) {
      snprintf(path, sizeof path, "%s/%s.%s.%s", dir, case_name, WHAT[i], png ? "png" : "ppm");
      write_image(path, imgs[i]);
    }
  image_free(&diff);
}
