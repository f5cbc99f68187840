// Adversarial attempt 05-background-only (assignments/05-renderer/tests/adversarial/README.md).
//
// The trick: write every pixel, but only the background (white, or the snow
// gradient), skipping the circles: the cheapest image that is right wherever
// no circle lands, hoping the comparison looks at few pixels, or forgives.
//
// Why it gets nothing: the judge compares every pixel of every frame with the
// CPU reference (1e-3 a channel; only edge pixels, within 1e-6 of a circle's
// rim, are masked), and the circles cover much of the image: ok=0, wrong in
// every call ("wrong in 80 of 80 calls" on rgb-256x256 and pattern).
#include "renderer.h"

extern "C" __global__ void render_image(int snow, int width, int height, float4 *image) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  image[(size_t)y * width + x] = render_background(snow, render_pixel_centre(y, height));
}

size_t render_workspace(int n, int width, int height) {
  (void)n, (void)width, (void)height;
  return 0;
}

cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work) {
  (void)d_work;
  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  render_image<<<grid, block>>>(scene.snow, width, height, d_image);
  return cudaGetLastError();
}
