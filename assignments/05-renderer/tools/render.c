/* render.c: renders a scene with the CPU reference and writes PPM and PNG files.
 *
 *   render --scene NAME | --file PATH  [--size N] [--frames K] [--threads T] --out PREFIX
 *   render --scene NAME --write-scene PATH      write the scene as a scene file
 *   render --list                               the scenes
 *
 * A still render writes PREFIX.ppm and PREFIX.png; --frames K renders frames
 * 0..K-1 of an animated scene as PREFIX-0000.png ... Exit 0 done, 1 an I/O or
 * memory error, 2 bad arguments (one line on stderr each). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "clock.h"
#include "image.h"
#include "render_cpu.h"
#include "scene.h"

#define MAX_FRAMES 10000

static const char usage[] =
    "usage: render --scene NAME | --file PATH [--size N] [--frames K] [--threads T] --out PREFIX\n"
    "       render --scene NAME | --file PATH --write-scene PATH\n"
    "       render --list\n";

typedef struct opts {
  const char *scene, *file, *out, *write_scene;
  uint64_t size, frames, threads;
  int list;
} opts;

/* A numeric option's value: a count in [lo, hi]. */
static int parse_num(const char *flag, const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!v || cli_parse_count(v, hi, out) || *out < lo) {
    fprintf(stderr, "render: %s needs a number from %llu to %llu, got \"%s\"\n", flag, (unsigned long long)lo,
            (unsigned long long)hi, v ? v : "");
    return -1;
  }
  return 0;
}

static int parse_args(int argc, char **argv, opts *o) {
  *o = (opts){.size = 1024, .frames = 0, .threads = 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **text = !strcmp(a, "--scene") ? &o->scene : !strcmp(a, "--file") ? &o->file
                      : !strcmp(a, "--out") ? &o->out : !strcmp(a, "--write-scene") ? &o->write_scene : NULL;
    if (text) {
      if (!v) return fprintf(stderr, "render: %s needs a value\n", a), -1;
      *text = v, i++;
    } else if (!strcmp(a, "--size")) {
      if (parse_num(a, v, 1, IMAGE_MAX_SIDE, &o->size)) return -1;
      i++;
    } else if (!strcmp(a, "--frames")) {
      if (parse_num(a, v, 1, MAX_FRAMES, &o->frames)) return -1;
      i++;
    } else if (!strcmp(a, "--threads")) {
      if (parse_num(a, v, 1, 256, &o->threads)) return -1;
      i++;
    } else if (!strcmp(a, "--list")) {
      o->list = 1;
    } else {
      return fprintf(stderr, "render: unknown argument \"%s\"\n%s", a, usage), -1;
    }
  }
  if (o->list) return 0;
  if (!o->scene == !o->file) return fprintf(stderr, "render: give one of --scene NAME or --file PATH\n%s", usage), -1;
  if (!o->out && !o->write_scene) return fprintf(stderr, "render: --out PREFIX is missing\n%s", usage), -1;
  return 0;
}

static double now_ms(void) { return 1e3 * clock_now_s(); }

/* Renders one frame and writes its files: PREFIX.ppm + PREFIX.png (frame < 0) or PREFIX-FFFF.png. */
static int render_one(const scene *s, const opts *o, int frame) {
  char err[512], path[4096];
  image img;
  double t0 = now_ms();
  if (render_cpu(s, (int)o->size, (int)o->size, (int)o->threads, &img, NULL, err, sizeof err))
    return fprintf(stderr, "render: %s\n", err), 1;
  double ms = now_ms() - t0;
  int rc = 0;
  if (frame < 0) {
    snprintf(path, sizeof path, "%s.ppm", o->out);
    rc = image_write_ppm(&img, path, err, sizeof err);
    if (!rc) {
      snprintf(path, sizeof path, "%s.png", o->out);
      rc = image_write_png(&img, path, 0, err, sizeof err);
    }
    if (!rc) printf("render: %s (%zu circles) at %dx%d in %.0f ms -> %s.ppm %s.png\n", s->name, s->n, img.width,
                    img.height, ms, o->out, o->out);
  } else {
    snprintf(path, sizeof path, "%s-%04d.png", o->out, frame);
    rc = image_write_png(&img, path, 0, err, sizeof err);
    if (!rc) printf("render: %s frame %d in %.0f ms -> %s\n", s->name, frame, ms, path);
  }
  image_free(&img);
  if (rc) fprintf(stderr, "render: %s\n", err);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  opts o;
  if (parse_args(argc, argv, &o)) return 2;
  if (o.list) {
    for (size_t i = 0; i < scene_table_len; i++)
      printf("%-10s %8zu  %s\n", scene_table[i].name, scene_table[i].count, scene_table[i].about);
    return 0;
  }
  scene s;
  char err[512];
  if (o.scene ? scene_make(o.scene, &s, err, sizeof err) : scene_read(o.file, &s, err, sizeof err)) {
    fprintf(stderr, "render: %s\n", err);
    return o.scene ? 2 : 1;
  }
  int rc = 0;
  if (o.frames && s.animated < 0) {
    fprintf(stderr, "render: --frames: %s is not animated; the animated scenes are:", s.name);
    for (size_t i = 0; i < scene_table_len; i++)
      if (scene_table[i].animated) fprintf(stderr, " %s", scene_table[i].name);
    fprintf(stderr, "\n");
    rc = 2;
  } else if (o.write_scene) {
    rc = scene_write(&s, o.write_scene, err, sizeof err) ? 1 : 0;
    if (rc) fprintf(stderr, "render: %s\n", err);
    else printf("render: wrote %s (%zu circles)\n", o.write_scene, s.n);
  }
  if (rc == 0 && o.out && !o.frames) rc = render_one(&s, &o, -1);
  for (int f = 0; rc == 0 && o.out && f < (int)o.frames; f++) {
    scene_advance(&s, f);
    rc = render_one(&s, &o, f);
  }
  scene_free(&s);
  return rc;
}
