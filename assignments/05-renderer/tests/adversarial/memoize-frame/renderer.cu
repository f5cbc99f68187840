// Adversarial attempt 05-memoize-frame (assignments/05-renderer/tests/adversarial/README.md).
//
// The trick: draw the first frame of a case honestly (one thread a pixel,
// every circle in order, with renderer.h's helpers: exactly the reference),
// keep it, and return the kept image for every later frame: a copy of the
// image is far cheaper than drawing it.
//
// Why it gets nothing: the judge moves every circle a little for every call
// (scene_jitter, warm-ups included; the moves add up), so no two frames are
// the same image and every frame is checked: ok=0, wrong in every call but
// the first ("wrong in 79 of 80 calls" on rgb-256x256 and on pattern: 2
// warm-ups + 3 samples of 16 frames each). Checked on the CPU against the reference:
// frame 0 differs from every one of frames 1..79 in at least 18 unmasked
// pixels on rgb-256x256 and 6775 on pattern.
#include "renderer.h"

extern "C" __global__ void render_image(render_scene s, int width, int height, float4 *image) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float px = render_pixel_centre(x, width), py = render_pixel_centre(y, height);
  float4 p = render_background(s.snow, py);
  for (int i = 0; i < s.n; i++) {
    float d2 = render_dist2(px, py, s.x[i], s.y[i]);
    if (render_covers(d2, s.r[i]))
      p = render_blend(p, s.snow, d2, s.r[i], s.rgb[3 * i], s.rgb[3 * i + 1], s.rgb[3 * i + 2]);
  }
  image[(size_t)y * width + x] = p;
}

static float4 *adv_kept;
static int adv_kept_w = -1, adv_kept_h = -1, adv_kept_n = -1;

size_t render_workspace(int n, int width, int height) {
  (void)n, (void)width, (void)height;
  return 0;
}

cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work) {
  (void)d_work;
  size_t bytes = (size_t)width * height * sizeof(float4);
  if (adv_kept && adv_kept_w == width && adv_kept_h == height && adv_kept_n == scene.n)
    return cudaMemcpyAsync(d_image, adv_kept, bytes, cudaMemcpyDeviceToDevice);
  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  render_image<<<grid, block>>>(scene, width, height, d_image);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  if (adv_kept) cudaFree(adv_kept);
  adv_kept = NULL;
  if ((e = cudaMalloc(&adv_kept, bytes)) != cudaSuccess) return e;
  adv_kept_w = width, adv_kept_h = height, adv_kept_n = scene.n;
  return cudaMemcpyAsync(adv_kept, d_image, bytes, cudaMemcpyDeviceToDevice);
}
