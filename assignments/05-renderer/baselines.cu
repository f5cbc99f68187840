// baselines.cu: assignment 05's bench row that is not student code, the CPU
// reference (grader/lib/render_cpu.c) on every host thread, the fallback that
// `make render` and `make movie` use without a GPU. Compiled only into the
// bench build (-DHX_BENCH), where main.cu includes it after its state.
//
// Its timed region renders the frame on the host and uploads it (16 bytes a
// pixel, about 1 ms at 1024x1024 on PCIe 4), so that the driver verifies its
// image like every other row's. It is timed only on scenes of up to 100k
// circles: the CPU needs seconds a frame beyond.
#ifndef HX_BENCH
#error "baselines.cu is for the bench build (-DHX_BENCH) only"
#endif

static const hx_variant hx05_baselines[] = {
    {"cpu_reference", "render_cpu on every host thread, then the image uploaded (the no-GPU fallback)"},
};
static const uint64_t hx05_baseline_max_n[] = {100000};

static void hx05_run_baseline(void *p, int baseline) {
  (void)baseline;
  hx_state *s = (hx_state *)p;
  char err[256];
  if (hx_scene_render_cpu((hx_scene *)s->scene, s->w, s->h, s->cpu_image, NULL, err, sizeof err)) {
    fprintf(stderr, "05-renderer: cpu_reference: %s\n", err);
    exit(3);
  }
  hx_upload(s->image, s->cpu_image, (size_t)s->w * (size_t)s->h * 4 * sizeof(float));
}
