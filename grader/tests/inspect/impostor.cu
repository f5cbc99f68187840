// impostor.cu: an inspector fixture that defines a function under the name -DFX_NAME gives (syscall, read, write,
// prctl, open, mmap, memcpy, cudaMalloc, runner_cuda_main): with -DFX_C under that very symbol, as an extern "C"
// definition would (an asm label, so that the headers' own declarations of the name do not get in the way),
// which the runner's calls to the library would reach; without it, as a C++ overload of the name. Refused
// either way, with the name said.
#define FX_STR2(x) #x
#define FX_STR(x) FX_STR2(x)
#ifdef FX_C
long fx_impostor(long a) __asm__(FX_STR(FX_NAME));
long fx_impostor(long a) { return a; }
#else
long FX_NAME(long a) { return a; }
#endif
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
