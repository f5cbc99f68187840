// iostream.cu: an inspector fixture that prints with <iostream>, whose std::ios_base::Init object (GCC 12) is accepted.
#include <iostream>
__global__ void fx_kernel(unsigned *x) { x[threadIdx.x] = 0; }
void fx_run(unsigned *x) {
  fx_kernel<<<1, 32>>>(x);
  std::cout << "launched\n";
}
