/* image.c: the RGBA float image, PPM and PNG files (libpng), the difference image. */
#include "image.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errcap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errcap, fmt, ap);
  va_end(ap);
  return -1;
}

int image_alloc(image *img, int w, int h, char *err, size_t errcap) {
  img->width = img->height = 0;
  img->px = NULL;
  if (w < 1 || h < 1 || w > IMAGE_MAX_SIDE || h > IMAGE_MAX_SIDE)
    return fail(err, errcap, "image size %dx%d: each side must be 1..%d", w, h, IMAGE_MAX_SIDE);
  img->px = calloc((size_t)w * (size_t)h * 4, sizeof(float));
  if (!img->px) return fail(err, errcap, "image size %dx%d: out of memory", w, h);
  img->width = w;
  img->height = h;
  return 0;
}

void image_free(image *img) {
  free(img->px);
  img->px = NULL;
  img->width = img->height = 0;
}

void image_fill(image *img, const float rgba[4]) {
  size_t n = (size_t)img->width * (size_t)img->height;
  for (size_t i = 0; i < n; i++) memcpy(img->px + 4 * i, rgba, 4 * sizeof(float));
}

uint8_t image_to8(float v) {
  if (!(v > 0.0f)) return 0; /* also NaN */
  if (v >= 1.0f) return 255;
  return (uint8_t)lroundf(255.0f * v);
}

/* Packs the image into 8-bit rows, top row first, with `channels` (3 or 4) per pixel. */
static uint8_t *pack8(const image *img, int channels) {
  size_t w = (size_t)img->width, h = (size_t)img->height;
  uint8_t *buf = malloc(w * h * (size_t)channels);
  if (!buf) return NULL;
  for (size_t row = 0; row < h; row++) {
    const float *src = img->px + 4 * (h - 1 - row) * w;
    uint8_t *dst = buf + row * w * (size_t)channels;
    for (size_t x = 0; x < w; x++)
      for (int c = 0; c < channels; c++) dst[x * (size_t)channels + (size_t)c] = image_to8(src[4 * x + (size_t)c]);
  }
  return buf;
}

/* The inverse of pack8: 8-bit rows, top row first, into img (already allocated). */
static void unpack8(image *img, const uint8_t *buf, int channels) {
  size_t w = (size_t)img->width, h = (size_t)img->height;
  for (size_t row = 0; row < h; row++) {
    float *dst = img->px + 4 * (h - 1 - row) * w;
    const uint8_t *src = buf + row * w * (size_t)channels;
    for (size_t x = 0; x < w; x++) {
      for (int c = 0; c < 3; c++) dst[4 * x + (size_t)c] = src[x * (size_t)channels + (size_t)c] / 255.0f;
      dst[4 * x + 3] = channels == 4 ? src[x * (size_t)channels + 3] / 255.0f : 1.0f;
    }
  }
}

int image_write_ppm(const image *img, const char *path, char *err, size_t errcap) {
  uint8_t *buf = pack8(img, 3);
  if (!buf) return fail(err, errcap, "%s: out of memory", path);
  FILE *f = fopen(path, "wb");
  if (!f) {
    free(buf);
    return fail(err, errcap, "%s: cannot write: %s", path, strerror(errno));
  }
  size_t bytes = (size_t)img->width * (size_t)img->height * 3;
  int ok = fprintf(f, "P6\n%d %d\n255\n", img->width, img->height) > 0 && fwrite(buf, 1, bytes, f) == bytes;
  int saved = errno;
  ok = (fclose(f) == 0) && ok;
  free(buf);
  if (!ok) return fail(err, errcap, "%s: write failed: %s", path, strerror(saved ? saved : errno));
  return 0;
}

int image_write_png(const image *img, const char *path, int alpha, char *err, size_t errcap) {
  int channels = alpha ? 4 : 3;
  uint8_t *buf = pack8(img, channels);
  if (!buf) return fail(err, errcap, "%s: out of memory", path);
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  pi.width = (png_uint_32)img->width;
  pi.height = (png_uint_32)img->height;
  pi.format = alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  int ok = png_image_write_to_file(&pi, path, 0, buf, 0, NULL);
  free(buf);
  if (!ok) {
    fail(err, errcap, "%s: cannot write PNG: %s", path, pi.message);
    png_image_free(&pi);
    return -1;
  }
  return 0;
}

/* Reads one PPM header number after skipping whitespace and # comments. */
static int ppm_number(FILE *f, int *out) {
  int c;
  for (;;) {
    c = getc(f);
    if (c == '#')
      while (c != '\n' && c != EOF) c = getc(f);
    else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      break;
  }
  if (c < '0' || c > '9') return -1;
  long v = 0;
  while (c >= '0' && c <= '9') {
    v = v * 10 + (c - '0');
    if (v > 1000000) return -1;
    c = getc(f);
  }
  /* Exactly one whitespace byte ends the number (before the raster, it must). */
  if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return -1;
  *out = (int)v;
  return 0;
}

static int read_ppm(FILE *f, const char *path, image *img, char *err, size_t errcap) {
  int w, h, maxval;
  if (ppm_number(f, &w) || ppm_number(f, &h) || ppm_number(f, &maxval))
    return fail(err, errcap, "%s: bad PPM header (expected P6 WIDTH HEIGHT 255)", path);
  if (maxval != 255) return fail(err, errcap, "%s: PPM maxval %d: only 255 is supported", path, maxval);
  if (image_alloc(img, w, h, err, errcap)) {
    char inner[160];
    snprintf(inner, sizeof inner, "%s", err);
    return fail(err, errcap, "%s: %s", path, inner);
  }
  size_t bytes = (size_t)w * (size_t)h * 3;
  uint8_t *buf = malloc(bytes);
  if (!buf) {
    image_free(img);
    return fail(err, errcap, "%s: out of memory", path);
  }
  size_t got = fread(buf, 1, bytes, f);
  int extra = getc(f) != EOF;
  if (got != bytes || extra) {
    free(buf);
    image_free(img);
    return got != bytes ? fail(err, errcap, "%s: PPM raster truncated: %zu of %zu bytes", path, got, bytes)
                        : fail(err, errcap, "%s: PPM has bytes after the raster", path);
  }
  unpack8(img, buf, 3);
  free(buf);
  return 0;
}

static int read_png(const char *path, image *img, char *err, size_t errcap) {
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&pi, path)) return fail(err, errcap, "%s: bad PNG: %s", path, pi.message);
  pi.format = PNG_FORMAT_RGBA;
  if (pi.width > IMAGE_MAX_SIDE || pi.height > IMAGE_MAX_SIDE) {
    png_image_free(&pi);
    return fail(err, errcap, "%s: PNG is %ux%u, more than %d on a side", path, pi.width, pi.height, IMAGE_MAX_SIDE);
  }
  uint8_t *buf = malloc(PNG_IMAGE_SIZE(pi));
  if (!buf || image_alloc(img, (int)pi.width, (int)pi.height, err, errcap)) {
    free(buf);
    png_image_free(&pi);
    return fail(err, errcap, "%s: out of memory", path);
  }
  if (!png_image_finish_read(&pi, NULL, buf, 0, NULL)) {
    fail(err, errcap, "%s: bad PNG: %s", path, pi.message);
    free(buf);
    image_free(img);
    png_image_free(&pi);
    return -1;
  }
  unpack8(img, buf, 4);
  free(buf);
  return 0;
}

int image_read(const char *path, image *img, char *err, size_t errcap) {
  img->width = img->height = 0;
  img->px = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, errcap, "%s: cannot open: %s", path, strerror(errno));
  unsigned char magic[8] = {0};
  size_t got = fread(magic, 1, 8, f);
  int rc;
  if (got >= 2 && magic[0] == 'P' && magic[1] == '6') {
    fseek(f, 2, SEEK_SET);
    rc = read_ppm(f, path, img, err, errcap);
    fclose(f);
  } else if (got == 8 && png_sig_cmp(magic, 0, 8) == 0) {
    fclose(f);
    rc = read_png(path, img, err, errcap);
  } else {
    fclose(f);
    rc = fail(err, errcap, "%s: neither a P6 PPM nor a PNG file", path);
  }
  return rc;
}

/* The difference ramp of image_diff, for one pixel. */
static void diff_colour(float e, int finite, int masked, float tol, float *out) {
  static const float GREY[4] = {0.5f, 0.5f, 0.5f, 1}, MAGENTA[4] = {1, 0, 1, 1};
  if (masked) {
    memcpy(out, GREY, sizeof GREY);
  } else if (!finite) {
    memcpy(out, MAGENTA, sizeof MAGENTA);
  } else if (e <= tol) {
    float s = tol > 0 ? e / tol : 0;
    out[0] = 0, out[1] = 0, out[2] = 0.4f * s, out[3] = 1;
  } else {
    float s = tol > 0 && tol < 1 ? logf(e / tol) / logf(1.0f / tol) : 1;
    s = s > 1 ? 1 : s;
    out[0] = 1, out[1] = s, out[2] = 0, out[3] = 1;
  }
}

long image_diff(const image *a, const image *b, const uint8_t *mask, float tol, image *out, char *err,
                size_t errcap) {
  if (a->width != b->width || a->height != b->height)
    return fail(err, errcap, "image_diff: sizes differ: %dx%d and %dx%d", a->width, a->height, b->width, b->height);
  if (image_alloc(out, a->width, a->height, err, errcap)) return -1;
  size_t n = (size_t)a->width * (size_t)a->height;
  long over = 0;
  for (size_t i = 0; i < n; i++) {
    float e = 0;
    int finite = 1;
    for (int c = 0; c < 4; c++) {
      float va = a->px[4 * i + (size_t)c], vb = b->px[4 * i + (size_t)c];
      finite = finite && isfinite(va) && isfinite(vb);
      float d = fabsf(va - vb);
      e = d > e ? d : e;
    }
    int masked = mask && mask[i];
    diff_colour(e, finite, masked, tol, out->px + 4 * i);
    over += !masked && (!finite || e > tol);
  }
  return over;
}
