#!/usr/bin/env bash
# need-gpu.sh TARGET GPUINFO: the first step of a make target that runs code on a GPU
# (make bench, make lectures-run): exit 0 when there is a CUDA GPU to run on, else one
# line `make TARGET: exit 3: needs a CUDA GPU (<why>)` on stderr and exit 3, before
# anything is built (a fresh clone's build of those targets takes minutes).
# A GPU is there when `nvidia-smi -L` lists one; where nvidia-smi is missing, when GPUINFO
# (build/tools/gpuinfo), if built, finds one, or else when the driver library libcuda.so.1
# is installed (the run itself then says whether there is a device). SCANLAB_NO_GPU set: none.
set -u
target=${1:?usage: need-gpu.sh TARGET GPUINFO}
gpuinfo=${2:?usage: need-gpu.sh TARGET GPUINFO}
why() {
  echo "make $target: exit 3: needs a CUDA GPU ($1)" >&2
  exit 3
}
[ -z "${SCANLAB_NO_GPU:-}" ] || why "no-GPU mode asked for: SCANLAB_NO_GPU is set"
if command -v nvidia-smi > /dev/null; then
  nvidia-smi -L 2> /dev/null | grep -q '^GPU' && exit 0
  why "nvidia-smi lists no GPU"
fi
# No nvidia-smi: gpuinfo's verdict when it is built; else the driver library decides.
if [ -x "$gpuinfo" ]; then
  line=$("$gpuinfo" 2> /dev/null) && exit 0
  why "${line:-$gpuinfo found none}"
fi
ldconfig -p 2> /dev/null | grep -q 'libcuda\.so\.1 ' && exit 0 # a driver: the run says whether it has a device
why "no NVIDIA driver: neither nvidia-smi nor libcuda.so.1 is installed"
