#!/usr/bin/env bash
# inspect-student.sh OBJECT DEPFILE SOURCE_NAME NVCC_BIN_DIR FOLDER...: refuses a student's object before it is linked into the runner.
#
# The student's .cu is compiled on its own (nvcc -c [-rdc=true] -MD -MF DEPFILE, with
# only its assignment's folder and its own on the include path) and linked into a
# runner process that also holds the runner, so its object must not bring CUB or
# Thrust (the assignment's work) nor the course's own code (its CPU references,
# which the runner's link leaves out), nor run code the runner did not call (static
# constructors and destructors: before the first call or after the last). FOLDERs
# are the folders whose files the student's file may include: its assignment's
# (assignments/NN: its interface headers) and its own; only the files directly in
# a FOLDER, not those of a folder below it (an assignment's judge/ holds its CPU
# reference, its runner/ the course's side). Paths are taken relative to the current folder,
# which is the repository root in the build. NVCC_BIN_DIR is where cuobjdump is
# (empty: /usr/local/cuda/bin). The course's name prefixes are in
# course-prefixes.txt beside this script.
# Exit 0 silently: accepted. Exit 1: one line `refused: SOURCE_NAME <reason>` on
# stdout. Exit 2: one line `inspect-student: ...` on stderr (bad arguments, missing
# files or tools, a tool that fails on the object). Checks, in order:
#   1. DEPFILE: a header under a cub/ or thrust/ folder (what was really compiled,
#      so `#define H <cub/cub.cuh>` + `#include H` and vendored copies are seen);
#   2. DEPFILE: a file of the repository (below the current folder, after `..` and
#      symbolic links are resolved) not directly in a FOLDER: a course file included by
#      a path such as "../../grader/lib/scan_cpu.c" or "judge/scan_cpu.c" (the first one is named);
#   3. host symbols (nm -C), defined or undefined: cub:: or thrust::;
#   4. host symbols defined with external linkage (nm: a global type, not U) whose
#      name begins with a prefix of course-prefixes.txt: the course's code, pasted
#      (the first one is named);
#   5. device symbols (cuobjdump -symbols): the mangled namespaces 3cub / 6thrust;
#      skipped only when NVCC_BIN_DIR has no cuobjdump;
#   6. code run at load or exit time: .init_array entries other than nvcc's one
#      _ZL24__sti____cudaRegisterAllv (the same with and without -rdc, nvcc 13.0) and
#      <iostream>'s std::ios_base::Init, any .fini_array/.preinit_array/.ctors/.dtors
#      entry, an .init/.fini section, an ifunc (its resolver runs at load time);
#   7-10. the link (inspect-links.sh beside this script): no symbol of a library the
#      runner links with, no global symbol outside the assignment's interface, no system
#      call instruction, no call outside student-calls.txt (each refusal names the
#      symbol). These need the libraries: one that cannot be found is exit 2.
set -euo pipefail

die() {
  printf 'inspect-student: %s\n' "$*" >&2
  exit 2
}

[ $# -ge 5 ] || die "usage: inspect-student.sh OBJECT DEPFILE SOURCE_NAME NVCC_BIN_DIR FOLDER..."
obj=$1 dep=$2 src=$3 bindir=${4:-/usr/local/cuda/bin}
shift 4
folders=("$@")
[ -n "$src" ] || die "SOURCE_NAME is empty"
[ -f "$obj" ] && [ -r "$obj" ] || die "no object file $obj"
[ -f "$dep" ] && [ -r "$dep" ] || die "no dependency file $dep"
for f in "${folders[@]}"; do
  [ -d "$f" ] || die "no folder $f (a FOLDER the student's file may include from)"
done
for tool in nm readelf objdump c++filt; do
  command -v "$tool" > /dev/null || die "$tool is not on PATH (binutils)"
done
for tool in awk sed realpath; do
  command -v "$tool" > /dev/null || die "$tool is not on PATH"
done

# The course's name prefixes: one a line, `#` to the end of a line is a comment.
prefix_file="$(dirname "${BASH_SOURCE[0]}")/course-prefixes.txt"
[ -f "$prefix_file" ] && [ -r "$prefix_file" ] || die "no list of the course's name prefixes $prefix_file"
prefixes=$(sed 's/#.*//' "$prefix_file" | awk 'NF { print $1 }')
[ -n "$prefixes" ] || die "$prefix_file lists no prefix"
bad=$(printf '%s\n' "$prefixes" | grep -m1 -vE '^[A-Za-z_][A-Za-z0-9_]*$' || true)
[ -z "$bad" ] || die "$prefix_file: '$bad' is not the beginning of a C name"
# A path that starts with '-' would read as an option to the tools.
case $obj in -*) obj=./$obj ;; esac

readonly ADVICE="the assignment's work is yours to write; the CUB rows are in make bench only"
readonly OWN_FILES="your file may include only its assignment's headers and files of its own folder"

refuse() {
  printf 'refused: %s %s\n' "$src" "$1"
  exit 1
}

# A symbol as a person reads it, cut to 100 characters.
short() {
  local s=$1
  if [ ${#s} -gt 100 ]; then s="${s:0:97}..."; fi
  printf '%s' "$s"
}

# A demangled function name without its parameter list (evil_ctor() -> evil_ctor);
# kept whole when the list has nested parentheses.
bare() {
  printf '%s\n' "$1" | c++filt | sed -E 's/\([^()]*\)( const)?$//'
}

readelf -h "$obj" > /dev/null 2>&1 || die "$obj is not an ELF object"

# ---- 1. the headers that were really compiled
# make syntax: continuation backslashes, targets before ':', '\ ' for a space in a path.
deps=$(awk '
  { line = $0; cont = sub(/\\$/, "", line); rule = rule " " line; if (cont) next; flush() }
  END { flush() }
  function flush(   n, i, t) {
    if (rule ~ /:/) {
      sub(/^[^:]*:/, "", rule)
      gsub(/\\ /, "\001", rule)
      n = split(rule, t, /[ \t]+/)
      for (i = 1; i <= n; i++) if (t[i] != "") { gsub("\001", " ", t[i]); print t[i] }
    }
    rule = ""
  }' "$dep")
[ -n "$deps" ] || die "$dep lists no prerequisites (not nvcc's -MD -MF output)"

# Paths are matched below the current folder (the repository root in the build),
# so a checkout under, say, ~/thrust/ does not count as Thrust.
here="$PWD/"
while IFS= read -r path; do
  rel=${path#"$here"}
  # the leftmost cub/ or thrust/ component names the library (old Thrust kept a CUB under thrust/)
  if [[ "/$rel" =~ /((cub|thrust)/.*)$ ]]; then
    case ${BASH_REMATCH[2]} in cub) lib=CUB ;; *) lib=Thrust ;; esac
    refuse "uses $lib (it includes ${BASH_REMATCH[1]}): $ADVICE"
  fi
done <<< "$deps"

# ---- 2. files of the repository outside the FOLDERs
# Resolved (`..`, symbolic links) before they are compared, so that
# "starter/04/../../grader/lib/scan_cpu.c" and a link to it count as what they are.
root="$(pwd -P)/"
allowed=()
for f in "${folders[@]}"; do allowed+=("$(realpath -m -- "$f")/"); done
# Whether path (resolved) lies directly in one of the FOLDERs.
allowed_path() {
  local a
  for a in "${allowed[@]}"; do [[ ${1%/*}/ == "$a" ]] && return 0; done
  return 1
}
mapfile -t listed <<< "$deps"
resolved=$(realpath -m -- "${listed[@]}" 2>&1) || die "realpath failed on the paths of $dep: $(printf '%s\n' "$resolved" | grep -m1 . || echo 'no message')"
while IFS= read -r real; do
  [[ $real == "$root"* ]] || continue
  allowed_path "$real" || refuse "includes a course file (${real#"$root"}): $OWN_FILES"
done <<< "$resolved"

# Which library a list of symbols (one a line) comes from, and its first symbol:
# "CUB<TAB>symbol", or nothing. CCCL's CUB calls Thrust helpers and Thrust is built
# on CUB, so both namespaces show up either way: the one with more symbols that
# begin with it names the library (a tie: CUB), and the symbol shown begins with it;
# where none begins with either, the same with the symbols that mention them.
# $1 $2: a CUB and a Thrust symbol's beginning; $3 $4: their mention; $5: the list.
pick_library() {
  local list=$5 n_cub n_thrust re_cub=$1 re_thrust=$2
  n_cub=$(printf '%s\n' "$list" | grep -cE "$re_cub" || true)
  n_thrust=$(printf '%s\n' "$list" | grep -cE "$re_thrust" || true)
  if [ "$n_cub" -eq 0 ] && [ "$n_thrust" -eq 0 ]; then
    re_cub=$3 re_thrust=$4
    n_cub=$(printf '%s\n' "$list" | grep -cE "$re_cub" || true)
    n_thrust=$(printf '%s\n' "$list" | grep -cE "$re_thrust" || true)
    [ "$n_cub" -gt 0 ] || [ "$n_thrust" -gt 0 ] || return 0
  fi
  if [ "$n_thrust" -gt "$n_cub" ]; then
    printf 'Thrust\t%s\n' "$(printf '%s\n' "$list" | grep -m1 -E "$re_thrust")"
  else
    printf 'CUB\t%s\n' "$(printf '%s\n' "$list" | grep -m1 -E "$re_cub")"
  fi
}

# ---- 3. host symbols, defined or undefined
syms=$(nm -C "$obj" 2> /dev/null) || die "nm failed on $obj"
# "ADDRESS TYPE NAME" (no address for an undefined one): keep "TYPE NAME"; the
# functions (T, t, W, w) that begin with a namespace are the ones counted.
names=$(printf '%s\n' "$syms" | sed -E 's/^[[:xdigit:] ]{8,16} //')
found=$(pick_library '^[TtWw] cub::' '^[TtWw] thrust::' '(^|[^A-Za-z0-9_])cub::' '(^|[^A-Za-z0-9_])thrust::' "$names")
if [ -n "$found" ]; then
  IFS=$'\t' read -r lib hit <<< "$found"
  refuse "uses $lib (symbol $(short "${hit#? }")): $ADVICE"
fi

# ---- 4. names of the course's libraries, defined here with external linkage
# "TYPE NAME" with a global type (not U): the name without its parameter list.
found=$(printf '%s\n' "$names" | awk -v prefixes="$prefixes" '
  BEGIN { n = split(prefixes, p, "\n") }
  /^[ABCDGRSTVW] / {
    name = substr($0, 3); sub(/\(.*/, "", name)
    for (i = 1; i <= n && !said; i++) if (index(name, p[i]) == 1) { print p[i] "\t" name; said = 1 }
  }')
if [ -n "$found" ]; then
  IFS=$'\t' read -r prefix hit <<< "$found"
  refuse "defines $(short "$hit"): names that begin with $prefix belong to the course's libraries, whose code your file may not carry (a function of yours needs another name)"
fi

# ---- 5. device symbols (the fat binary: SASS of -rdc objects is relocatable ELF)
cuobjdump="$bindir/cuobjdump"
if [ -x "$cuobjdump" ]; then
  if ! dev=$("$cuobjdump" -symbols "$obj" 2>&1); then
    die "$cuobjdump -symbols $obj failed: $(printf '%s\n' "$dev" | grep -m1 . || echo 'no message')"
  fi
  # "STT_FUNC  STB_GLOBAL STO_ENTRY  _Z...": the mangled name is the last field
  names=$(printf '%s\n' "$dev" | awk '/^STT_/ { print $NF }')
  # N, then cv/ref qualifiers, then the namespace's length-prefixed name: _ZN3cub, _ZNK6thrust, ...IN3cub...
  found=$(pick_library '^_ZZ?N[rVKRO]*3cub[0-9]' '^_ZZ?N[rVKRO]*6thrust[0-9]' 'N[rVKRO]*3cub[0-9]' 'N[rVKRO]*6thrust[0-9]' "$names")
  if [ -n "$found" ]; then
    IFS=$'\t' read -r lib hit <<< "$found"
    refuse "uses $lib (device symbol $(short "$(printf '%s\n' "$hit" | c++filt)")): $ADVICE"
  fi
fi

# ---- 6. code that runs at load or exit time
# readelf's section headers, symbol table and relocations and objdump's calls go
# into one awk program, which follows each .init_array entry to the functions it
# calls in this object. The relocations show calls to other sections and to global
# symbols; a call to a local function of the same section is resolved by the
# assembler and has none, so those come from the disassembly.
verdict=$({
  echo "@@sections"
  readelf -SW "$obj"
  echo "@@symbols"
  readelf -sW "$obj"
  echo "@@relocs"
  readelf -rW "$obj"
  echo "@@disasm"
  objdump -d -w --no-show-raw-insn "$obj"
} 2> /dev/null | awk '
function hex(s,   n, i, c) {
  s = tolower(s); sub(/^0x/, "", s); n = 0
  for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); if (!c) break; n = n * 16 + c - 1 }
  return n
}
function num(s) { return s ~ /^0x/ ? hex(s) : s + 0 }
/^@@/ { part = substr($0, 3); next }
part == "sections" && /^ *\[ *[0-9]+\]/ {
  line = $0; sub(/^ *\[ */, "", line); idx = line + 0; sub(/^[0-9]+\] */, "", line)
  n = split(line, f, /[ \t]+/)
  if (idx == 0 || n < 8) next
  sname[idx] = f[1]; stype[idx] = f[2]; soff[idx] = hex(f[4]); ssize[idx] = hex(f[5]); sinfo[idx] = f[n - 1] + 0
  nsec = idx > nsec ? idx : nsec
  next
}
part == "symbols" && /^ *[0-9]+: / {
  n = split($0, f, /[ \t]+/); if (f[1] == "") { for (i = 1; i < n; i++) f[i] = f[i + 1]; n-- }
  k = f[1] + 0
  yval[k] = hex(f[2]); ysize[k] = num(f[3]); ytype[k] = f[4]; ybind[k] = f[5]; yndx[k] = f[7]; yname[k] = n >= 8 ? f[8] : ""
  nsym = k > nsym ? k : nsym
  next
}
part == "relocs" && /^Relocation section / {
  cur = -1; o = $0; sub(/.* at offset /, "", o); sub(/ .*/, "", o); o = hex(o)
  for (i = 1; i <= nsec; i++) if ((i in soff) && soff[i] == o && stype[i] ~ /^RELA?$/) cur = sinfo[i]
  next
}
part == "relocs" && cur >= 0 && /^[0-9a-f]+ +[0-9a-f]+ / {
  n = split($0, f, /[ \t]+/)
  r = nrel[cur]++
  roff[cur, r] = hex(f[1]); rtype[cur, r] = f[3]
  info = f[2]; rsym[cur, r] = length(info) > 8 ? hex(substr(info, 1, length(info) - 8)) : 0
  add = 0
  if (n >= 7 && (f[6] == "+" || f[6] == "-")) add = (f[6] == "-" ? -1 : 1) * hex(f[7])
  else if (n == 4) add = hex(f[4])
  radd[cur, r] = add
  next
}
part == "disasm" && /^Disassembly of section / {
  o = $0; sub(/^Disassembly of section /, "", o); sub(/:$/, "", o)
  cur = -1; for (i = nsec; i >= 1; i--) if (sname[i] == o) cur = i
  next
}
# "  3d3:\tcall   396 <name>": a direct call or jump (x86-64; bl and b on aarch64), its address and target
part == "disasm" && cur >= 0 && /^ *[0-9a-f]+:\t(call|jmp|bl?)[a-z.]* +[0-9a-f]+ </ {
  n = split($0, f, /[ \t]+/); if (f[1] == "") { for (i = 1; i < n; i++) f[i] = f[i + 1]; n-- }
  r = ncall[cur]++
  caddr[cur, r] = hex(f[1]); cto[cur, r] = hex(f[3])
  next
}
# The defined function of section sec that contains x (-1 if none).
function func_at(sec, x,   k, best) {
  best = -1
  for (k = 1; k <= nsym; k++)
    if ((k in ytype) && ytype[k] ~ /^(FUNC|IFUNC)$/ && yndx[k] == sec && yval[k] <= x && (x < yval[k] + ysize[k] || (ysize[k] == 0 && yval[k] == x)))
      if (best < 0 || yval[k] == x) best = k
  return best
}
# What relocation r of section sec points at: "F<sym>" a function of this object,
# "X<name>" an undefined symbol, "D" data.
function target(sec, r,   k, x) {
  k = rsym[sec, r]
  if (k == 0) return "D"
  if (ytype[k] == "SECTION") {
    x = radd[sec, r] + (rtype[sec, r] ~ /PC32|PLT32|PC64/ ? 4 : 0)
    k = func_at(yndx[k], x)
    return k < 0 ? "D" : "F" k
  }
  if (yndx[k] == "UND") return "X" yname[k]
  if (ytype[k] ~ /^(FUNC|IFUNC)$/ || sname[yndx[k]] ~ /^\.text/) return "F" k
  return "D"
}
function generated(name) {
  return name ~ /^_GLOBAL__sub_[ID]_/ || name ~ /__static_initialization_and_destruction_/ || name ~ /^__cxx_global_var_init/
}
# Walks the functions that a load-time initializer of this object calls: stops at
# the first one that is not compiler glue and not <iostream>s ios_base::Init.
function walk(k,   sec, lo, hi, r, t, name) {
  if (k in seen) return
  seen[k] = 1
  sec = yndx[k]; lo = yval[k]; hi = ysize[k] > 0 ? lo + ysize[k] : ssize[sec]
  for (r = 0; r < nrel[sec] && culprit == ""; r++) {
    if (roff[sec, r] < lo || roff[sec, r] >= hi) continue
    t = target(sec, r)
    if (t == "D") continue
    name = substr(t, 2)
    if (t ~ /^X/) {
      if (name == "_ZNSt8ios_base4InitC1Ev") ios = 1
      else if (name !~ /^(_ZNSt8ios_base4InitD1Ev|__cxa_atexit|__dso_handle|__stack_chk_fail|_GLOBAL_OFFSET_TABLE_)$/) culprit = name
    } else if (generated(yname[name])) walk(name + 0)
    else culprit = yname[name]
  }
  for (r = 0; r < ncall[sec] && culprit == ""; r++) {
    if (caddr[sec, r] < lo || caddr[sec, r] >= hi || relocated(sec, caddr[sec, r])) continue
    t = func_at(sec, cto[sec, r])
    if (t < 0 || t == k) continue
    if (generated(yname[t])) walk(t)
    else culprit = yname[t]
  }
}
# Whether the call or jump at a has a relocation (whose target then counts): on x86-64 the
# rel32 field starts 1 byte in (e8, e9), 2 with a prefix; on aarch64 it is the instruction.
function relocated(sec, a,   r) {
  for (r = 0; r < nrel[sec]; r++) if (roff[sec, r] >= a && roff[sec, r] <= a + 2) return 1
  return 0
}
function say(kind, name) { if (!said) print kind "\t" name; said = 1 }
END {
  for (k = 1; k <= nsym; k++) if ((k in ytype) && ytype[k] == "IFUNC") say("ifunc", yname[k])
  for (s = 1; s <= nsec; s++) {
    if (!(s in sname)) continue
    nm = sname[s]
    if (nm == ".init" || nm == ".fini") { k = func_at(s, 0); say("section", nm "\t" (k < 0 ? "" : yname[k])); continue }
    if (nm ~ /^\.(preinit_array|ctors|dtors)(\.|$)/ || stype[s] == "PREINIT_ARRAY") kind = "section"
    else if (nm ~ /^\.init_array(\.|$)/ || stype[s] == "INIT_ARRAY") kind = "init"
    else if (nm ~ /^\.fini_array(\.|$)/ || stype[s] == "FINI_ARRAY") kind = "fini"
    else continue
    if (nrel[s] < int(ssize[s] / 8)) { say("section", nm "\t"); continue }
    for (r = 0; r < nrel[s]; r++) {
      t = target(s, r)
      name = t ~ /^F/ ? yname[substr(t, 2) + 0] : substr(t, 2)
      if (kind == "section") { say("section", nm "\t" name); continue }
      if (kind == "fini") { say("dtor", name); continue }
      if (t ~ /^F/ && name == "_ZL24__sti____cudaRegisterAllv" && !nvcc_seen) { nvcc_seen = 1; continue }
      if (t ~ /^F/ && name ~ /^_GLOBAL__sub_I_/) {
        culprit = ""; ios = 0; split("", seen); walk(substr(t, 2) + 0)
        if (culprit != "") say("global", culprit)
        else if (!ios) say("init", name)
        continue
      }
      say("ctor", name)
    }
  }
}') || die "cannot read the sections of $obj (readelf, objdump)"

why="code in your file may run only when the runner calls it"
[ -z "$verdict" ] || IFS=$'\t' read -r kind name extra <<< "$verdict"
[ -z "$verdict" ] || case $kind in
  ctor) refuse "defines a static constructor ($(bare "${name:-an entry with no function}")): $why" ;;
  dtor) refuse "defines a static destructor ($(bare "${name:-an entry with no function}")): $why" ;;
  ifunc) refuse "defines an ifunc ($(bare "$name")), whose resolver runs at load time: $why" ;;
  init) refuse "initializes a global at load time ($name): $why" ;;
  section) refuse "has a $name section${extra:+ ($(bare "$extra"))}, run at load or exit time: $why" ;;
  global)
    d=$(bare "$name")
    # X::X is a constructor, X::~X a destructor (registered with __cxa_atexit)
    last=${d##*::} prev=${d%::*}
    prev=${prev##*::}
    if [[ $d == *::~* ]]; then
      refuse "defines a global object with a destructor ($(short "$d")): $why"
    elif [[ $d == *::* && ${prev%%<*} == "${last%%<*}" ]]; then
      refuse "defines a global object with a constructor ($(short "$d")): $why"
    else
      refuse "initializes a global at load time (with $(short "$d")): $why"
    fi
    ;;
  *) die "unexpected verdict $kind" ;;
esac

# ---- 7-10. the link: through the assignment's interface only
links="$(dirname "${BASH_SOURCE[0]}")/inspect-links.sh"
[ -f "$links" ] && [ -r "$links" ] || die "no $links (the link checks)"
# shellcheck source=grader/inspect/inspect-links.sh
. "$links"
link_checks
exit 0
