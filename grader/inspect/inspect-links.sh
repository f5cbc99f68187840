# inspect-links.sh: the link checks of grader/inspect/inspect-student.sh, which sources it (not run on its own).
# shellcheck shell=bash disable=SC2154 # obj, bindir and folders are the caller's
#
# The student's object is linked into one process with the runner, the C and C++
# libraries and the CUDA runtime, ahead of the libraries: a function it defines under
# a library's name is what the runner's own calls reach (a `syscall` that answers 0 to
# the sandbox's seccomp, a `write` that speaks the protocol). So the object may link
# only through its assignment's interface:
#   7. it defines no symbol of the libraries the runner links with (the dynamic symbols
#      of libc, libm, libpthread, libstdc++, libgcc_s and the dynamic loader that the host
#      compiler links, the global symbols of libcudart_static.a beside NVCC_BIN_DIR or on
#      the host compiler's library path), nor
#      a C++ function of the global namespace named as one of their C functions (an
#      overload such as `long syscall(long)`); the runner's names are check 4's;
#   8. every other global symbol it defines (weak ones too) is one of: a name its
#      assignment's headers declare (header-decls.awk on FOLDER 1's *.h and *.cuh),
#      a kernel's host function or nvcc's stub for it (named by the
#      __device_stub__<kernel> symbols nvcc writes), nvcc's registration data, the C++
#      compiler's DW.ref.__gxx_personality_v0, a name of an anonymous namespace, a symbol
#      of vague linkage (in a COMDAT group: inline functions, templates); anything
#      else is refused, naming it ("make it static"): refused rather than made local with
#      objcopy, because a `link = inline` runner compiles the student's source itself into
#      runner.cu, where there is no object to rewrite, and one rule serves all five;
#   9. its executable sections hold no system call instruction (syscall, sysenter,
#      int $0x80; svc on aarch64), as objdump -d disassembles them;
#  10. every symbol it leaves undefined (what it calls or reads from elsewhere) is a name
#      its headers declare or matches student-calls.txt beside this script.
# A library the inspection cannot find or read is exit 2, never a silent pass. The awk
# programs read their whole input after a verdict (no early exit), so that the writer
# of a pipe never dies of SIGPIPE, which pipefail would make the script's exit status.
# Uses the caller's obj, bindir, folders, die, refuse, short and bare.

# "LABEL<TAB>PATH" for each library the runner links with, on stdout.
link_library_paths() {
  local cxx lib path ldso what cudart c
  cxx=$(command -v g++ || command -v c++) || die "neither g++ nor c++ is on PATH: cannot find the C and C++ libraries the runner links with"
  path=$("$cxx" -print-file-name=libc.so.6)
  [[ $path == /* && -f $path ]] || die "cannot find libc.so.6 ($cxx -print-file-name=libc.so.6 says '$path')"
  # the dynamic loader libc names (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1)
  ldso=$(readelf -dW "$path" 2> /dev/null | sed -n 's/.*(NEEDED).*\[\(ld-[^]]*\)\].*/\1/p' | awk 'NR == 1')
  [ -n "$ldso" ] || die "cannot read the dynamic loader's name from $path (readelf -d)"
  for lib in libc.so.6 libm.so.6 libpthread.so.0 libstdc++.so.6 libgcc_s.so.1 "$ldso"; do
    case $lib in
      libc.*) what="the C library" ;;
      libm.*) what="the math library" ;;
      libpthread.*) what="the threads library" ;;
      libstdc++.*) what="the C++ library" ;;
      libgcc_s.*) what="GCC's runtime library" ;;
      *) what="the dynamic loader" ;;
    esac
    path=$("$cxx" -print-file-name="$lib")
    [[ $path == /* && -f $path ]] || die "cannot find $lib ($cxx -print-file-name=$lib says '$path'): the inspection needs the libraries the runner links with"
    printf '%s (%s)\t%s\n' "$what" "$lib" "$path"
  done
  # beside nvcc (a toolkit in /usr/local/cuda), else where the host compiler finds it (a distribution's nvcc in /usr/bin)
  for c in "$bindir/../lib64/libcudart_static.a" "$bindir"/../targets/*/lib/libcudart_static.a \
    "$("$cxx" -print-file-name=libcudart_static.a)"; do
    if [[ $c == /* && -f $c ]]; then cudart=$c; break; fi
  done
  [ -n "${cudart:-}" ] || die "no libcudart_static.a in $bindir/../lib64 or $bindir/../targets/*/lib, nor on $cxx's library path: the inspection needs the CUDA runtime the runner links with"
  printf '%s\t%s\n' "the CUDA runtime (libcudart_static.a)" "$cudart"
}

# The symbols of the libraries of link_library_paths ($1), "LABEL<TAB>SYMBOL" a line.
link_read_symbols() {
  local label path n
  while IFS=$'\t' read -r label path; do
    case $label in
      "the CUDA runtime"*)
        nm -g --defined-only "$path" 2> /dev/null | awk -v lab="$label" '
          NF == 3 && $2 != "A" { print lab "\t" $3; if ($3 == "cudaMalloc") ok = 1 } END { exit !ok }' ||
          die "$path does not define cudaMalloc: not the CUDA runtime" ;;
      *)
        n=$(nm -D --defined-only "$path" 2> /dev/null | awk -v lab="$label" '
          NF >= 3 && $2 != "A" { s = $3; sub(/@.*/, "", s); print lab "\t" s; k++ } END { exit k == 0 }') ||
          die "nm -D found no symbol in $path ($(sed 's/.*(\(.*\))$/\1/' <<< "$label"))"
        printf '%s\n' "$n" ;;
    esac
  done <<< "$1"
}

# "LABEL<TAB>SYMBOL" for every symbol the runner's libraries define, on stdout. The
# list depends only on the toolchain, so it is kept in build/inspect-libs/ (when the
# current folder has a build/ it may write; SCANLAB_INSPECT_LIBS=DIR keeps it in DIR
# instead, for the tests), under a key of each library's label, path,
# size, modification time and inode (stat -L) and of this file: a library updated,
# moved or replaced, or a change here, is a new key and the list is read again. A kept
# list is used only when it is whole (it ends with the line "@@end"); it is written
# under a temporary name and renamed, so two builds at once never read a half-written one.
link_library_symbols() {
  local paths key dir kept tmp
  paths=$(link_library_paths) || exit 2
  dir=${SCANLAB_INSPECT_LIBS:-build/inspect-libs}
  if { [ -n "${SCANLAB_INSPECT_LIBS:-}" ] || { [ -d build ] && [ -w build ]; }; } && mkdir -p "$dir" 2> /dev/null; then
    key=$({
      printf '%s\n' "$paths"
      cut -f2 <<< "$paths" | xargs -d '\n' stat -L -c '%n %s %Y %i'
      cat "${BASH_SOURCE[0]}"
    } | cksum | tr ' ' -) || die "cannot stat the runner's libraries"
    kept=$dir/$key.tsv
    if [ -f "$kept" ] && [ "$(tail -n 1 "$kept")" = "@@end" ]; then
      sed '$d' "$kept"
      return 0
    fi
    tmp=$kept.tmp$$
    (link_read_symbols "$paths" && echo "@@end") > "$tmp" || { rm -f "$tmp"; exit 2; }
    mv -f "$tmp" "$kept"
    sed '$d' "$kept"
    return 0
  fi
  link_read_symbols "$paths"
}

# The names FOLDER 1's headers declare (the assignment's interface), one a line.
link_interface() {
  local h awk_file
  awk_file="$(dirname "${BASH_SOURCE[0]}")/header-decls.awk"
  [ -f "$awk_file" ] && [ -r "$awk_file" ] || die "no $awk_file (the reader of the assignment's headers)"
  for h in "${folders[0]}"/*.h "${folders[0]}"/*.cuh; do
    [ -f "$h" ] || continue
    awk -f "$awk_file" "$h" || die "cannot read the declarations of $h"
  done | sort -u
}

# "NAME<TAB>DEMANGLED" for each line NAME of the list $1.
link_demangle() {
  [ -n "$1" ] || return 0
  paste <(printf '%s\n' "$1") <(printf '%s\n' "$1" | c++filt)
}

link_checks() {
  local libs iface defined undefined all verdict kind name extra base kernels vague allow_file allow
  libs=$(link_library_symbols) || exit 2
  iface=$(link_interface) || exit 2
  all=$(nm "$obj" 2> /dev/null) || die "nm failed on $obj"
  defined=$(nm -g --defined-only "$obj" 2> /dev/null | awk 'NF == 3 { print $3 }') || die "nm -g failed on $obj"
  defined=$(link_demangle "$defined")
  # ---- 7. a library's symbol, or a C++ function named as a library's C function
  verdict=$({
    printf '%s\n' "$libs"
    echo "@@student"
    printf '%s\n' "$defined"
  } | awk -F '\t' '
    said { next }
    $0 == "@@student" { part = 1; next }
    !part { if (!($2 in lib)) lib[$2] = $1; next }
    $1 in lib { print "exact\t" $1 "\t" lib[$1]; said = 1; next }
    # a C++ function of the global namespace: NAME(...) with NAME a C symbol of a library
    $1 ~ /^_Z/ && match($2, /^[A-Za-z_][A-Za-z0-9_]*\(/) {
      base = substr($2, 1, RLENGTH - 1)
      if ((base in lib) && base !~ /^_Z/) { print "named\t" $2 "\t" lib[base] "\t" base; said = 1 }
    }')
  if [ -n "$verdict" ]; then
    IFS=$'\t' read -r kind name extra base <<< "$verdict"
    if [ "$kind" = exact ]; then
      refuse "defines $(short "$name"), a symbol of $extra: the runner's own calls would reach yours; your file may define only what its assignment's headers declare, and its kernels"
    fi
    refuse "defines $(short "$name"), named as $base of $extra: a function of yours needs a name of its own, and static"
  fi

  # ---- 8. the interface, kernels, nvcc's and the compiler's own
  # kernels: nvcc's stub for kernel _ZK is _Z<len>__device_stub__ZK...; its static
  # variables (_ZZ<len>__device_stub__...E8__handle) name it where the stub is inlined
  kernels=$(printf '%s\n' "$all" | awk '
    {
      s = $NF
      while (match(s, /[0-9]+__device_stub__Z/)) {
        pre = substr(s, RSTART, RLENGTH); sub(/__device_stub__Z$/, "", pre)
        len = pre + 0; start = RSTART + length(pre)
        print "_" substr(s, start + 15, len - 15)
        s = substr(s, start + len)
      }
    }' | sort -u)
  # vague linkage: a symbol defined in a section of a COMDAT group (an inline function, a
  # template's instantiation, a static local of one), which the linker keeps once, the
  # first copy it meets: runner.cu's object comes before the student's, librunner.a has
  # none (test_inspect.c), and a library's own is check 7's
  vague=$({
    readelf -gW "$obj"
    echo "@@symbols"
    readelf -sW "$obj"
  } 2> /dev/null | awk '
    $0 == "@@symbols" { part = 1; next }
    !part && /^ *\[ *[0-9]+\] / && !/COMDAT/ { s = $0; sub(/^ *\[ */, "", s); member[s + 0] = 1; next }
    part && /^ *[0-9]+: / && $5 != "LOCAL" && ($7 + 0) in member && $7 ~ /^[0-9]+$/ { print $8 }') ||
    die "readelf failed on $obj"
  verdict=$({
    printf '%s\n' "$iface" | sed 's/^/I\t/'
    link_demangle "$kernels" | sed 's/^/K\t/'
    printf '%s\n' "$vague" | sed 's/^/V\t/'
    echo "@@student"
    printf '%s\n' "$defined"
  } | awk -F '\t' '
    said { next }
    $0 == "@@student" { part = 1; next }
    !part && $1 == "I" { iface[$2] = 1; next }
    !part && $1 == "V" { vague[$2] = 1; next }
    !part && $1 == "K" {
      kern[$2] = 1
      # an extern "C" kernel: its host function has the bare name
      if (match($3, /^[A-Za-z_][A-Za-z0-9_]*\(/)) ckern[substr($3, 1, RLENGTH - 1)] = 1
      next
    }
    !part { next }
    function allowed(name, dem,   base) {
      if ((name in kern) || (name in vague)) return 1
      if (name !~ /^_Z/) return (name in iface) || (name in ckern) || name ~ /^__fatbinwrap_/ ||
        name ~ /^hostRef(Constant|Device|Kernel)Array(External|Internal)Linkage$/ || name == "DW.ref.__gxx_personality_v0"
      if (name ~ /^_Z[0-9]+__device_stub__Z/) return 1
      if (dem ~ /^\(anonymous namespace\)::/) return 1
      if (match(dem, /^[A-Za-z_][A-Za-z0-9_]*\(/)) { base = substr(dem, 1, RLENGTH - 1); return base in iface }
      return 0
    }
    !allowed($1, $2) { print $2; said = 1 }')
  [ -z "$verdict" ] ||
    refuse "defines $(short "$verdict"), which its assignment's headers do not declare: make it static (or put it in an anonymous namespace); your file may define with external linkage only the headers' names and its kernels"

  # ---- 9. system call instructions
  verdict=$(objdump -d -w --no-show-raw-insn "$obj" 2> /dev/null | awk '
    said { next }
    /^[0-9a-f]+ <.*>:$/ { f = $0; sub(/^[0-9a-f]+ </, "", f); sub(/>:$/, "", f); next }
    /^ *[0-9a-f]+:\t(syscall|sysenter|int +\$0x80|svc)([ \t]|$)/ {
      split($0, p, "\t"); ins = p[2]; sub(/ +$/, "", ins); gsub(/ +/, " ", ins); print ins "\t" f; said = 1
    }') || die "objdump -d failed on $obj"
  if [ -n "$verdict" ]; then
    IFS=$'\t' read -r name extra <<< "$verdict"
    refuse "has a system call instruction ($name, in $(short "$(printf '%s\n' "$extra" | c++filt)")): your file may reach the system only through the functions the handout allows"
  fi

  # ---- 10. what it calls from elsewhere
  allow_file="$(dirname "${BASH_SOURCE[0]}")/student-calls.txt"
  [ -f "$allow_file" ] && [ -r "$allow_file" ] || die "no list of the functions a student's file may call $allow_file"
  allow=$(sed 's/#.*//' "$allow_file" | awk 'NF { print $1 }')
  [ -n "$allow" ] || die "$allow_file lists nothing"
  undefined=$(nm -u "$obj" 2> /dev/null | awk '{ print $NF }') || die "nm -u failed on $obj"
  undefined=$(link_demangle "$undefined")
  verdict=$({
    printf '%s\n' "$allow" | sed 's/^/P\t/'
    printf '%s\n' "$iface" | sed 's/^/I\t/'
    echo "@@student"
    printf '%s\n' "$undefined"
  } | awk -F '\t' '
    # a pattern of student-calls.txt as an ERE: * is any run of characters, the rest literal
    function ere(p,   out, i, c) {
      out = "^"
      for (i = 1; i <= length(p); i++) { c = substr(p, i, 1); out = out (c == "*" ? ".*" : c ~ /[A-Za-z0-9_]/ ? c : "[" c "]") }
      return out "$"
    }
    said { next }
    $0 == "@@student" { part = 1; next }
    !part && $1 == "P" { if ($2 ~ /^!/) deny[++nd] = ere(substr($2, 2)); else ok[++na] = ere($2); next }
    !part && $1 == "I" { iface[$2] = 1; next }
    !part || $1 == "" { next }
    {
      name = $1; good = 0
      if (match($2, /^[A-Za-z_][A-Za-z0-9_]*\(/) && (substr($2, 1, RLENGTH - 1) in iface)) good = 1
      if (name in iface) good = 1
      for (i = 1; i <= nd && !good; i++) if (name ~ deny[i]) { print $2 "\tdenied"; said = 1; next }
      for (i = 1; i <= na && !good; i++) if (name ~ ok[i]) good = 1
      if (!good) { print $2 "\tunlisted"; said = 1 }
    }')
  [ -z "$verdict" ] || {
    IFS=$'\t' read -r name extra <<< "$verdict"
    refuse "calls $(short "$(bare "$name")"), which a student's file may not use: host code may call the CUDA runtime, memory, string and math functions and print to stdout and stderr (grader/inspect/student-calls.txt, docs/grading.md)"
  }
}
