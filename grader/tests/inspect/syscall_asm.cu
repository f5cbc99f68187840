// syscall_asm.cu: an inspector fixture that makes a system call with an instruction of its own (inline asm), so no
// call to a library's syscall() shows in its symbols: prctl(PR_SET_SECCOMP) and the like would need no libc at all.
// Refused for the instruction.
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
cudaError_t fx_run(unsigned *x) {
  long ret;
  long nr = 39; // getpid on x86-64: harmless here, the instruction is what counts
  __asm__ volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
  if (ret < 0) return cudaErrorUnknown;
  fx_kernel<<<1, 32>>>(x);
  return cudaGetLastError();
}
