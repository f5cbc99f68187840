// renderer.cu: the circle renderer of assignment 05. Yours to rewrite.
//
// This starter draws one circle per thread, straight into the image: every
// thread walks its circle's bounding box and blends each covered pixel in
// place (load, blend, store). It compiles and runs, and it is wrong in two
// ways that the handout (assignments/05-renderer/README.md) explains:
//   order      - circles that overlap are blended in whatever order their
//                threads reach the pixel, not in increasing index;
//   atomicity  - two threads that blend the same pixel at the same time both
//                load the old value, and one update is lost.
// Replace it with a tiled renderer: one block per tile of pixels, circles
// tested against the tile in chunks, an exclusive scan over the hit flags to
// list each tile's circles in order, each pixel blended in registers and
// written once.
#include "renderer.h"

// TODO(student): the device workspace your binning needs (0 bytes if none).
size_t render_workspace(int n, int width, int height) {
  (void)n, (void)width, (void)height;
  return 0;
}

// One thread per pixel: the background.
__global__ void render_clear(float4 *image, int width, int height, int snow) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width) image[(size_t)y * width + x] = render_background(snow, render_pixel_centre(y, height));
}

// TODO(student): replace with one block per tile (about 60 lines).
// One thread per circle: blends its circle into every pixel it covers, in place.
extern "C" __global__ void render_image(render_scene s, int width, int height, float4 *image) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.n) return;
  float cx = s.x[i], cy = s.y[i], r = s.r[i];
  // The circle's bounding box in pixels, one pixel wider each side, clipped to the image.
  int x0 = max((int)floorf((cx - r) * width) - 1, 0), x1 = min((int)ceilf((cx + r) * width) + 1, width - 1);
  int y0 = max((int)floorf((cy - r) * height) - 1, 0), y1 = min((int)ceilf((cy + r) * height) + 1, height - 1);
  for (int y = y0; y <= y1; y++) {
    float py = render_pixel_centre(y, height);
    for (int x = x0; x <= x1; x++) {
      float d2 = render_dist2(render_pixel_centre(x, width), py, cx, cy);
      if (!render_covers(d2, r)) continue;
      float4 *p = &image[(size_t)y * width + x];
      *p = render_blend(*p, s.snow, d2, r, s.rgb[3 * i], s.rgb[3 * i + 1], s.rgb[3 * i + 2]); // races and order
    }
  }
}

cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work) {
  (void)d_work;
  if (width <= 0 || height <= 0) return cudaErrorInvalidValue;
  render_clear<<<dim3((width + 255) / 256, height), 256>>>(d_image, width, height, scene.snow);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess || scene.n == 0) return err;
  render_image<<<(scene.n + 255) / 256, 256>>>(scene, width, height, d_image);
  return cudaGetLastError();
}
