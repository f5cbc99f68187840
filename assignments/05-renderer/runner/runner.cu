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

#define RT_SLUG(id, slug, summary) slug,
static const char *const rt_slugs[] = {RT_VARIANT_LIST(RT_SLUG)};

static size_t rt_workspace(int variant, uint64_t n, uint64_t param) {
  (void)variant; // one variant: render()
  return render_workspace((int)n, RT_WIDTH(param), RT_HEIGHT(param));
}

// The timed region: one frame of your render(). Its error, if any, ends the
// run with exit 3 and the CUDA error string.
static void rt_call(const runner_call *c) {
  render_scene scene;
  scene.x = (const float *)c->in[RT_IN_X];
  scene.y = (const float *)c->in[RT_IN_Y];
  scene.r = (const float *)c->in[RT_IN_R];
  scene.rgb = (const float *)c->in[RT_IN_RGB];
  scene.n = (int)c->n;
  scene.snow = RT_IS_SNOW(c->param);
  RUNNER_CHECK(render(scene, RT_WIDTH(c->param), RT_HEIGHT(c->param), (float4 *)c->out[0], c->work));
  RUNNER_CHECK_LAUNCH();
}

static const runner_assignment rt_runner = {
    .name = "05-renderer",
    .slugs = rt_slugs,
    .n_slugs = (int)(sizeof rt_slugs / sizeof *rt_slugs),
    .workspace_bytes = rt_workspace,
    .call = rt_call,
};

RUNNER_MAIN(rt_runner)
