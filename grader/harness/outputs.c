/* outputs.c: --out and --save-failed (driver.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "driver.h"

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

void hx_write_out(const char *path, const hx_io *io) {
  if (io->n_out == 0) hx_die(2, "--out %s: this case has no output", path);
  if (first_image(io)) hx_die(3, "--out %s: image output is not built in yet", path); /* MERGE: image.c */
  const hx_output *o = &io->out[0];
  void *host = download_output(o);
  size_t bytes = o->count * hx_type_bytes(o->type);
  FILE *f = fopen(path, "wb");
  if (!f) hx_die(2, "--out %s: %s", path, strerror(errno));
  if (fwrite(host, 1, bytes, f) != bytes || fclose(f) != 0) hx_die(3, "--out %s: write failed", path);
}

void hx_save_failed(const char *dir, const char *case_name, const hx_io *io) {
  (void)dir;
  (void)case_name;
  if (!first_image(io)) return; /* only images are saved */
  hx_die(3, "--save-failed: image output is not built in yet"); /* MERGE: image.c */
}
