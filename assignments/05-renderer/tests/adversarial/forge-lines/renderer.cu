// Adversarial attempt 05-forge-lines (assignments/05-renderer/tests/adversarial/README.md).
//
// The trick: draw nothing, and write result lines that say ok=1 to every
// descriptor 1..9, hoping one of them is where the grader reads results from.
//
// Why it gets nothing: result lines come only from the judge, on its
// --result-fd, which the runner never holds. The lines that land on the
// runner's reply pipe (descriptor 4) are garbage to the judge, which stops the
// run: judge exit 5, "the runner broke the protocol", no result line.
#include "renderer.h"
#include "../common/forge.h"

size_t render_workspace(int n, int width, int height) {
  (void)n, (void)width, (void)height;
  return 0;
}

extern "C" __global__ void render_image(float4 *image) { (void)image; }

cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work) {
  (void)scene, (void)width, (void)height, (void)d_image, (void)d_work;
  adv_forge_everywhere();
  return cudaSuccess;
}
