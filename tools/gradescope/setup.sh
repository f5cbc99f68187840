#!/usr/bin/env bash
# setup.sh: Gradescope runs this once, as root, when it builds the autograder's image
# (make gradescope puts it at the zip's root). It installs what grading needs: gcc,
# make, gnuplot (perf.png), jq (run_autograder's notes), and the CUDA Toolkit's
# compiler from NVIDIA's apt repository when the image has no /usr/local/cuda. The
# grader is prebuilt (grader/bin/grade, inih linked in); libinih-dev is installed
# only because tools/deps.sh asks for it before every `make grade`.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
CUDA_VERSION=${CUDA_VERSION:-13-0} # apt's spelling of CUDA 13.0

apt-get update -qq
apt-get install -y -qq gcc g++ make libinih-dev libpng-dev zlib1g-dev gnuplot-nox jq wget ca-certificates

if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  . /etc/os-release # ID=ubuntu, VERSION_ID=22.04 -> NVIDIA's repository name ubuntu2204
  repo="${ID}${VERSION_ID//./}"
  wget -q "https://developer.download.nvidia.com/compute/cuda/repos/${repo}/x86_64/cuda-keyring_1.1-1_all.deb" -O /tmp/cuda-keyring.deb
  dpkg -i /tmp/cuda-keyring.deb
  apt-get update -qq
  # the compiler, the runtime (static and headers) and CUB/Thrust headers; the
  # sanitizer and Nsight Compute only matter on a GPU runner
  apt-get install -y -qq "cuda-nvcc-${CUDA_VERSION}" "cuda-cudart-dev-${CUDA_VERSION}" "cuda-cccl-${CUDA_VERSION}" \
    "cuda-sanitizer-${CUDA_VERSION}" || { echo "setup.sh: could not install the CUDA Toolkit ${CUDA_VERSION} for ${repo}" >&2; exit 1; }
  [ -e /usr/local/cuda ] || ln -s "/usr/local/cuda-${CUDA_VERSION/-/.}" /usr/local/cuda
fi
/usr/local/cuda/bin/nvcc --version | tail -1
chmod 755 /autograder/source/run_autograder
