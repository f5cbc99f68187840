/* image.h: an RGBA float image, its PPM and PNG files, and a difference image.
 *
 * Pixel (x, y) is px[4 * (y * width + x) + c], c = 0..3 for red, green, blue,
 * alpha; row 0 is the BOTTOM row (the y axis points up). Files are
 * written top row first, as PPM and PNG expect. On the way to 8 bits each
 * channel is clamped to [0, 1] and becomes round(255 * v); reading back gives
 * v8 / 255 (alpha 1 for files without alpha).
 *
 * Functions return 0, or -1 with a one-line reason naming the file in err;
 * they never exit. PNG goes through libpng (link -l:libpng16.a -l:libz.a -lm
 * so programs run on GPU hosts without libpng). */
#ifndef SCANLAB_IMAGE_H
#define SCANLAB_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Images larger than this on a side are refused (files and allocation). */
#define IMAGE_MAX_SIDE 16384

typedef struct image {
  int width, height;
  float *px; /* 4 * width * height floats, row 0 at the bottom */
} image;

/* Allocates a w x h image filled with zeros. */
int image_alloc(image *img, int w, int h, char *err, size_t errcap);
void image_free(image *img);
/* Sets every pixel to rgba. */
void image_fill(image *img, const float rgba[4]);

/* The 8-bit value a channel is written as: clamp to [0,1], round(255 v); NaN gives 0. */
uint8_t image_to8(float v);

/* P6, maxval 255, RGB (alpha is dropped). */
int image_write_ppm(const image *img, const char *path, char *err, size_t errcap);
/* 8-bit RGB (alpha = 0) or RGBA (alpha = 1). */
int image_write_png(const image *img, const char *path, int alpha, char *err, size_t errcap);
/* Reads a P6 PPM (maxval 255) or a PNG (any kind libpng reads, as 8-bit RGBA),
 * chosen by the file's first bytes. img is allocated here; free with image_free. */
int image_read(const char *path, image *img, char *err, size_t errcap);

/* A picture of where a and b differ, into out (allocated here, same size).
 * Per pixel e = the largest channel difference |a - b| over rgba:
 *   masked (mask[i] != 0)      grey 0.5
 *   a or b not finite          magenta
 *   e <= tol                   black, brightening to dark blue as e nears tol
 *   e > tol                    red (just over tol) to yellow (e >= 1), on a log scale
 * mask may be NULL. Returns the number of pixels over tol (unmasked), or -1 on
 * an error (sizes differ, no memory). */
long image_diff(const image *a, const image *b, const uint8_t *mask, float tol, image *out, char *err,
                size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
