/* render_cpu.c: the CPU reference renderer: circles binned per 16x16 tile, tiles
 * shared out to threads, each tile blended circle by circle in index order. */
#include "render_cpu.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

const float render_snow_ramp_table[SNOW_RAMP_LEN][3] = SNOW_RAMP_TABLE;

void render_snow_ramp(float t, float rgb[3]) {
  float s = (t < 1.0f ? t : 1.0f) * (SNOW_RAMP_LEN - 1);
  int i = (int)s;
  if (i > SNOW_RAMP_LEN - 2) i = SNOW_RAMP_LEN - 2; /* t = 1 interpolates to the last entry */
  float f = s - (float)i;
  for (int c = 0; c < 3; c++)
    rgb[c] = (1.0f - f) * render_snow_ramp_table[i][c] + f * render_snow_ramp_table[i + 1][c];
}

float render_snow_depth(float r) {
  float z = (r - SCENE_SNOW_R_FAR) / (SCENE_SNOW_R_NEAR - SCENE_SNOW_R_FAR);
  z = z < 0.0f ? 0.0f : z > 1.0f ? 1.0f : z;
  return 0.4f + 0.6f * z;
}

/* ---------------------------------------------------------------- binning */

/* Circle indices per tile, in increasing order: tile t's are idx[start[t] .. start[t+1]). */
typedef struct bins {
  int tiles_x, tiles_y;
  size_t *start;
  uint32_t *idx;
} bins;

/* The pixels whose centres may lie within r + RENDER_EDGE_EPS of c's centre:
 * box = {x_lo, x_hi, y_lo, y_hi}, inclusive, clamped to the image; conservative
 * (one pixel wider on each side against rounding). Returns 0 when the circle
 * misses the image. */
static int circle_pixels(const circle *c, int w, int h, int box[4]) {
  double reach = (double)c->r + RENDER_EDGE_EPS;
  double lo[2] = {(c->x - reach) * w - 0.5, (c->y - reach) * h - 0.5};
  double hi[2] = {(c->x + reach) * w - 0.5, (c->y + reach) * h - 0.5};
  int size[2] = {w, h};
  for (int a = 0; a < 2; a++) {
    double l = floor(lo[a]) - 1, u = ceil(hi[a]) + 1;
    if (!(u >= 0) || !(l <= size[a] - 1)) return 0; /* also NaN */
    box[2 * a] = l < 0 ? 0 : (int)l;
    box[2 * a + 1] = u > size[a] - 1 ? size[a] - 1 : (int)u;
  }
  return 1;
}

/* One pass over the circles: with idx NULL, counts into slot[t]; else appends
 * circle i at idx[slot[t]++]. Circles go in increasing index, so lists are ordered. */
static void bins_pass(const scene *s, int w, int h, int tiles_x, size_t *slot, uint32_t *idx) {
  for (size_t i = 0; i < s->n; i++) {
    int box[4];
    if (!circle_pixels(&s->c[i], w, h, box)) continue;
    for (int ty = box[2] / RENDER_TILE; ty <= box[3] / RENDER_TILE; ty++)
      for (int tx = box[0] / RENDER_TILE; tx <= box[1] / RENDER_TILE; tx++) {
        size_t k = (size_t)ty * (size_t)tiles_x + (size_t)tx;
        if (idx)
          idx[slot[k]++] = (uint32_t)i;
        else
          slot[k]++;
      }
  }
}

static int bins_build(const scene *s, int w, int h, bins *b) {
  b->tiles_x = (w + RENDER_TILE - 1) / RENDER_TILE;
  b->tiles_y = (h + RENDER_TILE - 1) / RENDER_TILE;
  size_t tiles = (size_t)b->tiles_x * (size_t)b->tiles_y;
  b->start = calloc(tiles + 1, sizeof *b->start);
  size_t *slot = calloc(tiles + 1, sizeof *slot);
  b->idx = NULL;
  if (!b->start || !slot) goto fail;
  bins_pass(s, w, h, b->tiles_x, slot, NULL);
  for (size_t t = 0; t < tiles; t++) b->start[t + 1] = b->start[t] + slot[t]; /* exclusive scan of the counts */
  memcpy(slot, b->start, tiles * sizeof *slot);
  b->idx = malloc((b->start[tiles] ? b->start[tiles] : 1) * sizeof *b->idx);
  if (!b->idx) goto fail;
  bins_pass(s, w, h, b->tiles_x, slot, b->idx);
  free(slot);
  return 0;
fail:
  free(slot);
  free(b->start);
  free(b->idx);
  return -1;
}

/* ---------------------------------------------------------------- shading */

/* Four floats or four lane masks (GCC and Clang vector extension: SSE on
 * x86-64, NEON on ARM, plain code elsewhere). Each lane does the scalar
 * operations of one pixel, in the same order, so the bits are the scalar ones. */
typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));
enum { GROUPS = RENDER_TILE / 4 }; /* groups of 4 pixels in a tile row */

typedef struct job {
  const scene *s;
  const bins *b;
  image *img;
  uint8_t *mask;
  atomic_int next_tile;
} job;

/* Blends circle c into pixel p, which it covers at squared distance d2. */
static void blend(scene_mode mode, const circle *c, float d2, float *p) {
  float a, col[3];
  if (mode == SCENE_SNOW) {
    float t = sqrtf(d2) / c->r;
    a = 0.5f * render_snow_depth(c->r) * expf(-4.0f * t * t);
    render_snow_ramp(t, col);
    for (int k = 0; k < 3; k++) col[k] = c->rgb[k] * col[k];
  } else {
    a = RENDER_ALPHA;
    memcpy(col, c->rgb, sizeof col);
  }
  for (int k = 0; k < 3; k++) p[k] = a * col[k] + (1.0f - a) * p[k];
  p[3] += a;
}

static v4f pick(v4i m, v4f yes, v4f no) { return (v4f)(((v4i)yes & m) | ((v4i)no & ~m)); }
/* Whether any lane of m is set: one instruction with SSE, four reads elsewhere. */
static int any(v4i m) {
#ifdef __SSE2__
  return _mm_movemask_ps((__m128)m) != 0;
#else
  return (m[0] | m[1] | m[2] | m[3]) != 0;
#endif
}

/* One tile: every pixel starts as the background; then the tile's circles, in
 * increasing index, each blended into the pixels of its box that it covers.
 * Circle after circle is the same per-pixel order as pixel after pixel, and
 * keeps the tile (16 x 16 pixels, one plane a channel) in cache while the list
 * streams by. A row of the box goes four pixels at a time: the distances, the
 * coverage test and the flat blend run on four lanes; the snow blend (expf)
 * and the exact edge test, in double, run per pixel on the lanes that need them. */
static void shade_tile(const job *j, int t) {
  const scene *s = j->s;
  const bins *b = j->b;
  int w = j->img->width, h = j->img->height;
  int x0 = (t % b->tiles_x) * RENDER_TILE, y0 = (t / b->tiles_x) * RENDER_TILE;
  int nx = w - x0 < RENDER_TILE ? w - x0 : RENDER_TILE, ny = h - y0 < RENDER_TILE ? h - y0 : RENDER_TILE;
  float py[RENDER_TILE];
  v4f px[GROUPS], p[4][RENDER_TILE][GROUPS]; /* p[channel][row][group] */
  v4i lane_x[GROUPS];                         /* the lanes' columns in the tile */
  uint8_t edge[RENDER_TILE][RENDER_TILE];
  int snow = s->mode == SCENE_SNOW;
  for (int g = 0; g < GROUPS; g++)
    for (int l = 0; l < 4; l++) {
      px[g][l] = ((float)(x0 + 4 * g + l) + 0.5f) / (float)w;
      lane_x[g][l] = 4 * g + l;
    }
  for (int i = 0; i < ny; i++) py[i] = ((float)(y0 + i) + 0.5f) / (float)h;
  for (int y = 0; y < ny; y++) {
    float g = snow ? SNOW_BG_BOTTOM + (SNOW_BG_TOP - SNOW_BG_BOTTOM) * py[y] : 1.0f;
    for (int q = 0; q < GROUPS; q++) {
      p[0][y][q] = p[1][y][q] = p[2][y][q] = (v4f){g, g, g, g};
      p[3][y][q] = (v4f){1.0f, 1.0f, 1.0f, 1.0f};
    }
    memset(edge[y], 0, sizeof edge[y]);
  }
  for (size_t k = b->start[t]; k < b->start[t + 1]; k++) {
    const circle *c = &s->c[b->idx[k]];
    int box[4];
    circle_pixels(c, w, h, box);
    int xa = box[0] > x0 ? box[0] - x0 : 0, xb = box[1] - x0 < nx - 1 ? box[1] - x0 : nx - 1;
    int ya = box[2] > y0 ? box[2] - y0 : 0, yb = box[3] - y0 < ny - 1 ? box[3] - y0 : ny - 1;
    float rr = c->r * c->r;
    const float a = RENDER_ALPHA, keep = 1.0f - a;
    const v4f cx = {c->x, c->x, c->x, c->x}, vrr = {rr, rr, rr, rr}, vkeep = {keep, keep, keep, keep};
    const v4f add[3] = {{a * c->rgb[0], a * c->rgb[0], a * c->rgb[0], a * c->rgb[0]},
                        {a * c->rgb[1], a * c->rgb[1], a * c->rgb[1], a * c->rgb[1]},
                        {a * c->rgb[2], a * c->rgb[2], a * c->rgb[2], a * c->rgb[2]}};
    const v4f va = {a, a, a, a};
    double lo = c->r > RENDER_EDGE_EPS ? c->r - RENDER_EDGE_EPS : 0, hi = c->r + RENDER_EDGE_EPS;
    /* The float d2 is within a few 1e-7 (relative) of the exact distance, so a
     * d2 outside the band widened by 1e-5 cannot be an edge: the exact test,
     * in double, runs only inside it. */
    float band_lo = (float)(lo * lo * (1 - 1e-5)), band_hi = (float)(hi * hi * (1 + 1e-5));
    const v4f vlo = {band_lo, band_lo, band_lo, band_lo}, vhi = {band_hi, band_hi, band_hi, band_hi};
    for (int y = ya; y <= yb; y++) {
      float dy = py[y] - c->y, dy2 = dy * dy;
      const v4f vdy2 = {dy2, dy2, dy2, dy2};
      for (int q = xa / 4; q <= xb / 4; q++) {
        v4i in_box = (lane_x[q] >= xa) & (lane_x[q] <= xb);
        v4f dx = px[q] - cx, d2 = dx * dx + vdy2;
        v4i cover = in_box & (d2 <= vrr), band = j->mask ? in_box & (d2 >= vlo) & (d2 <= vhi) : (v4i){0, 0, 0, 0};
        if (!any(cover | band)) continue; /* most groups of a box, for a small circle */
        if (any(band))
          for (int l = 0; l < 4; l++) {
            if (!band[l]) continue;
            /* The exact distance of the two float centres, against r +- eps. */
            double ex = (double)px[q][l] - c->x, ey = (double)py[y] - c->y, e2 = ex * ex + ey * ey;
            edge[y][4 * q + l] |= e2 >= lo * lo && e2 <= hi * hi;
          }
        if (!any(cover)) continue;
        if (snow) {
          for (int l = 0; l < 4; l++) {
            if (!cover[l]) continue;
            float one[4] = {p[0][y][q][l], p[1][y][q][l], p[2][y][q][l], p[3][y][q][l]};
            blend(s->mode, c, d2[l], one);
            for (int ch = 0; ch < 4; ch++) p[ch][y][q][l] = one[ch];
          }
        } else { /* blend()'s flat case on four pixels: the same operations, so the same bits */
          for (int ch = 0; ch < 3; ch++) p[ch][y][q] = pick(cover, add[ch] + vkeep * p[ch][y][q], p[ch][y][q]);
          p[3][y][q] = pick(cover, p[3][y][q] + va, p[3][y][q]);
        }
      }
    }
  }
  for (int y = 0; y < ny; y++) {
    float *row = j->img->px + 4 * ((size_t)(y0 + y) * (size_t)w + (size_t)x0);
    for (int x = 0; x < nx; x++)
      for (int ch = 0; ch < 4; ch++) row[4 * x + ch] = p[ch][y][x / 4][x % 4];
    if (j->mask) memcpy(j->mask + (size_t)(y0 + y) * (size_t)w + (size_t)x0, edge[y], (size_t)nx);
  }
}

static void *worker(void *arg) {
  job *j = arg;
  int tiles = j->b->tiles_x * j->b->tiles_y;
  for (int t; (t = atomic_fetch_add(&j->next_tile, 1)) < tiles;) shade_tile(j, t);
  return NULL;
}

int render_cpu(const scene *s, int w, int h, int threads, image *img, uint8_t *mask, char *err, size_t errcap) {
  if (image_alloc(img, w, h, err, errcap)) return -1;
  if (render_cpu_into(s, img, threads, mask, err, errcap)) return image_free(img), -1;
  return 0;
}

int render_cpu_into(const scene *s, image *img, int threads, uint8_t *mask, char *err, size_t errcap) {
  bins b;
  if (bins_build(s, img->width, img->height, &b)) {
    snprintf(err, errcap, "render_cpu: out of memory binning %zu circles at %dx%d", s->n, img->width, img->height);
    return -1;
  }
  if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  if (threads > 256) threads = 256;
  job j = {.s = s, .b = &b, .img = img, .mask = mask};
  atomic_init(&j.next_tile, 0);
  pthread_t tid[256];
  int started = 0;
  while (started < threads - 1 && pthread_create(&tid[started], NULL, worker, &j) == 0) started++;
  worker(&j);
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  free(b.start);
  free(b.idx);
  return 0;
}
