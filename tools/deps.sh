#!/usr/bin/env bash
# deps.sh MODE NVCC: checks what `make grade` (MODE=grade) or `make test`
# (MODE=test) needs. Missing Debian packages are installed when this can be done
# without asking (root, or sudo -n); otherwise it prints the exact command and
# fails. The CUDA Toolkit is not a Debian package here: it says where to get it.
set -u
mode=${1:?usage: deps.sh grade|test NVCC}
nvcc=${2:-/usr/local/cuda/bin/nvcc}
pkgs=()

have_header() { echo "#include <$1>" | cc -E -x c - >/dev/null 2>&1; }
have_static() { [ "$(cc -print-file-name="$1")" != "$1" ]; }

command -v cc >/dev/null 2>&1 || pkgs+=(gcc)
command -v ar >/dev/null 2>&1 || pkgs+=(binutils)
# The grader links inih statically: a grader already built from the current
# sources (a GPU host without a package manager), or the one a handout ships
# prebuilt (grader/bin/grade), needs no inih to grade.
grader_current() {
  [ -x grader/bin/grade ] && return 0
  [ -x build/grader/grade ] && [ -z "$(find grader/src -newer build/grader/grade -print -quit 2>/dev/null)" ]
}
if ! { [ "$mode" = grade ] && grader_current; }; then
  { have_header ini.h && have_static libinih.a; } || pkgs+=(libinih-dev)
fi
# The runner links libpng and zlib statically (PNG images of failed cases).
{ have_header png.h && have_static libpng16.a; } || pkgs+=(libpng-dev)
have_static libz.a || pkgs+=(zlib1g-dev)
if [ "$mode" = test ]; then
  command -v pkg-config >/dev/null 2>&1 || pkgs+=(pkg-config)
  { have_header check.h && have_static libcheck.a; } || pkgs+=(check)
  have_header jansson.h || pkgs+=(libjansson-dev)
  command -v gnuplot >/dev/null 2>&1 || pkgs+=(gnuplot-nox)
  # A single-node Slurm cluster for make grade-all BACKEND=slurm's test (tests/slurm-cluster.sh).
  have_sbin() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
  have_sbin slurmctld || pkgs+=(slurmctld)
  have_sbin slurmd || pkgs+=(slurmd)
  command -v sbatch >/dev/null 2>&1 || pkgs+=(slurm-client)
  have_sbin munged || pkgs+=(munge)
fi

if [ ${#pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then sudo=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n)
  else
    echo "make $mode: missing Debian packages: ${pkgs[*]}" >&2
    echo "Install them with:  sudo apt-get install -y ${pkgs[*]}" >&2
    exit 1
  fi
  echo "make $mode: installing ${pkgs[*]}"
  if ! { "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${pkgs[@]}"; }; then
    echo "make $mode: installing failed. Try:  sudo apt-get install -y ${pkgs[*]}" >&2
    exit 1
  fi
fi

if [ ! -x "$nvcc" ]; then
  echo "make $mode: nvcc not found at $nvcc. Install the CUDA Toolkit 12.x or 13.x" >&2
  echo "  (https://developer.nvidia.com/cuda-downloads), or point CUDA_HOME at it: make $mode CUDA_HOME=/opt/cuda" >&2
  exit 1
fi
if [ "$mode" = grade ] && ! command -v gnuplot >/dev/null 2>&1; then
  echo "note: gnuplot is not installed, so grading skips perf.png (sudo apt-get install -y gnuplot-nox)"
fi
exit 0
