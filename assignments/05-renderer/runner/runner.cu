// runner.cu: the course-owned runner of assignment 05 (the circle renderer). Do not edit.
//
// The untrusted side of grading (grader/runner/runner.h): this file and your
// renderer.cu, compiled on its own, make build/<src>/05-renderer/runner. It
// maps one call's buffers onto your render(): the judge made the frame (the
// scene's arrays x, y, r and rgb, every circle moved a little for this call),
// and the judge alone draws the CPU reference and compares your image with it.
// Each call is one frame, timed as a whole: clearing, binning, drawing. The
// workspace is allocated once per case, untimed, filled with 0xA5 bytes and
// kept between calls; the image is filled with 0xA5 bytes before every call.
//
//   build/<src>/05-renderer/runner --list      (runs the judge on this runner)
//   build/<src>/05-renderer/runner --case rand10k --out rand10k.png
//   build/<src>/05-renderer/runner --bench
#include "renderer.h"
#include "runner.h"
#include "variants.h"

#define HX05_SLUG(id, slug, summary) slug,
static const char *const hx05_slugs[] = {HX05_VARIANT_LIST(HX05_SLUG)};

static size_t hx05_workspace(int variant, uint64_t n, uint64_t param) {
  (void)variant; // one variant: render()
  return render_workspace((int)n, HX05_WIDTH(param), HX05_HEIGHT(param));
}

// The timed region: one frame of your render(). Its error, if any, ends the
// run with exit 3 and the CUDA error string.
static void hx05_call(const hx_call *c) {
  render_scene scene;
  scene.x = (const float *)c->in[HX05_IN_X];
  scene.y = (const float *)c->in[HX05_IN_Y];
  scene.r = (const float *)c->in[HX05_IN_R];
  scene.rgb = (const float *)c->in[HX05_IN_RGB];
  scene.n = (int)c->n;
  scene.snow = HX05_IS_SNOW(c->param);
  HX_CHECK(render(scene, HX05_WIDTH(c->param), HX05_HEIGHT(c->param), (float4 *)c->out[0], c->work));
  HX_CHECK_LAUNCH();
}

static const hx_runner hx05_runner = {
    .name = "05-renderer",
    .slugs = hx05_slugs,
    .n_slugs = (int)(sizeof hx05_slugs / sizeof *hx05_slugs),
    .workspace_bytes = hx05_workspace,
    .call = hx05_call,
};

HX_RUNNER_MAIN(hx05_runner)
