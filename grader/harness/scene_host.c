/* scene_host.c: assignment 05's scenes and CPU reference behind hx_ names (scene_host.h). */
#include "scene_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_cpu.h"
#include "scene.h"

struct hx_scene {
  scene s;
};

hx_scene *hx_scene_open(const char *name, char *err, size_t errcap) {
  hx_scene *h = malloc(sizeof *h);
  if (!h) {
    snprintf(err, errcap, "scene %s: out of host memory", name);
    return NULL;
  }
  if (scene_make(name, &h->s, err, errcap)) {
    free(h);
    return NULL;
  }
  return h;
}

void hx_scene_close(hx_scene *h) {
  if (!h) return;
  scene_free(&h->s);
  free(h);
}

size_t hx_scene_count(const hx_scene *h) { return h->s.n; }

int hx_scene_is_snow(const hx_scene *h) { return h->s.mode == SCENE_SNOW; }

void hx_scene_arrays(const hx_scene *h, float *x, float *y, float *r, float *rgb) {
  for (size_t i = 0; i < h->s.n; i++) {
    const circle *c = &h->s.c[i];
    x[i] = c->x, y[i] = c->y, r[i] = c->r;
    memcpy(rgb + 3 * i, c->rgb, sizeof c->rgb);
  }
}

void hx_scene_jitter(hx_scene *h, uint64_t seed, int frame) { scene_jitter(&h->s, seed, frame); }

int hx_scene_render_cpu(const hx_scene *h, int w, int hgt, float *rgba, uint8_t *mask, char *err, size_t errcap) {
  image img;
  if (render_cpu(&h->s, w, hgt, 0, &img, mask, err, errcap)) return -1;
  memcpy(rgba, img.px, 4 * sizeof(float) * (size_t)w * (size_t)hgt);
  image_free(&img);
  return 0;
}
