// renderer.h: what you write in renderer.cu (assignment 05), and the course's
// device helpers that compute one pixel exactly as the CPU reference does
// (assignments/05-renderer/judge/render_cpu.h states the arithmetic; render_spec.h holds its
// constants). Use the helpers and your image matches the reference to the
// last bit on normal scenes, and within 1e-6 on snow (the GPU's expf).
//
// The image is width x height float4 pixels (r, g, b, a), row 0 at the
// bottom: pixel (x, y) is d_image[y * width + x]. Pixel centres are
// ((x + 0.5) / width, (y + 0.5) / height) in the unit square, where circle
// centres and radii live too. Each pixel starts as the background and blends,
// in increasing circle index, every circle that covers its centre.
#ifndef RENDERER_H
#define RENDERER_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "render_spec.h"

// The scene on the device: structure of arrays, n circles.
typedef struct render_scene {
  const float *x, *y; // centre of circle i: (x[i], y[i])
  const float *r;     // radius, > 0
  const float *rgb;   // colour: rgb[3 * i + 0 .. 2]
  int n;
  int snow;           // 1: snow shading (alpha and colour fade with the distance), 0: alpha 0.5, flat colour
} render_scene;

// ---------------------------------------------------------------- you write these (renderer.cu)

// Bytes of device workspace render() needs for n circles at width x height (0
// if none). The runner allocates it once, untimed, fills it with garbage
// bytes, and passes it to every render() call: resetting what you keep in it
// is part of your timed work. No check grades its size (a GPU that cannot give
// it stops the case with "not enough device memory"): size it from the scene.
size_t render_workspace(int n, int width, int height);

// Draws one frame: every pixel of d_image (the runner fills it with garbage
// first). All of it is timed: clearing, binning, drawing. Launches its kernels
// on the default stream and returns the first error (a failed launch included);
// it never exits. The kernel that writes the final pixels must be
//   extern "C" __global__ void render_image(...)   (any parameters)
// since the ptx check of grade.conf reads it. CUB and Thrust are not allowed.
cudaError_t render(render_scene scene, int width, int height, float4 *d_image, void *d_work);

// ---------------------------------------------------------------- course-owned helpers
// The _rn intrinsics round each operation on its own, as the C reference does:
// without them nvcc would fuse a * b + c into one FMA, whose different rounding
// moves results by about 1e-7 (harmless under the 1e-3 tolerance, but exact is
// easier to debug).

// The centre of pixel column (or row) i of size columns (rows).
static __device__ __forceinline__ float render_pixel_centre(int i, int size) {
  return __fdiv_rn(__fadd_rn((float)i, 0.5f), (float)size);
}

// Squared distance from a pixel centre (px, py) to a circle centre (cx, cy).
static __device__ __forceinline__ float render_dist2(float px, float py, float cx, float cy) {
  float dx = __fsub_rn(px, cx), dy = __fsub_rn(py, cy);
  return __fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy));
}

// 1 when a circle of radius r covers a pixel centre at squared distance d2 (the edge included).
static __device__ __forceinline__ int render_covers(float d2, float r) { return d2 <= __fmul_rn(r, r); }

// A pixel's colour before any circle: white, or for snow a grey that brightens upwards (py: the centre's y).
static __device__ __forceinline__ float4 render_background(int snow, float py) {
  float g = snow ? __fadd_rn(SNOW_BG_BOTTOM, __fmul_rn(__fsub_rn(SNOW_BG_TOP, SNOW_BG_BOTTOM), py)) : 1.0f;
  return make_float4(g, g, g, 1.0f);
}

static __constant__ float render_snow_ramp_dev[SNOW_RAMP_LEN][3] = SNOW_RAMP_TABLE;

// Pixel p blended with one circle that covers it: radius r, colour (red, green,
// blue), squared distance d2 from the pixel centre. Returns the new pixel.
static __device__ __forceinline__ float4 render_blend(float4 p, int snow, float d2, float r, float red, float green,
                                                      float blue) {
  float a = RENDER_ALPHA;
  if (snow) {
    float t = __fdiv_rn(__fsqrt_rn(d2), r);
    float z = __fdiv_rn(__fsub_rn(r, SCENE_SNOW_R_FAR), __fsub_rn(SCENE_SNOW_R_NEAR, SCENE_SNOW_R_FAR));
    z = z < 0.0f ? 0.0f : z > 1.0f ? 1.0f : z;
    float depth = __fadd_rn(0.4f, __fmul_rn(0.6f, z));
    a = __fmul_rn(__fmul_rn(0.5f, depth), expf(__fmul_rn(__fmul_rn(-4.0f, t), t)));
    float s = __fmul_rn(t < 1.0f ? t : 1.0f, (float)(SNOW_RAMP_LEN - 1));
    int i = (int)s;
    if (i > SNOW_RAMP_LEN - 2) i = SNOW_RAMP_LEN - 2;
    float f = __fsub_rn(s, (float)i), g = __fsub_rn(1.0f, f);
    const float *lo = render_snow_ramp_dev[i], *hi = render_snow_ramp_dev[i + 1];
    red = __fmul_rn(red, __fadd_rn(__fmul_rn(g, lo[0]), __fmul_rn(f, hi[0])));
    green = __fmul_rn(green, __fadd_rn(__fmul_rn(g, lo[1]), __fmul_rn(f, hi[1])));
    blue = __fmul_rn(blue, __fadd_rn(__fmul_rn(g, lo[2]), __fmul_rn(f, hi[2])));
  }
  float keep = __fsub_rn(1.0f, a);
  p.x = __fadd_rn(__fmul_rn(a, red), __fmul_rn(keep, p.x));
  p.y = __fadd_rn(__fmul_rn(a, green), __fmul_rn(keep, p.y));
  p.z = __fadd_rn(__fmul_rn(a, blue), __fmul_rn(keep, p.z));
  p.w = __fadd_rn(p.w, a);
  return p;
}

#endif
