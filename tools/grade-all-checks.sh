# shellcheck shell=bash
# grade-all-checks.sh: what make grade-all (tools/grade-all.sh, which sources this file)
# checks before it trusts a name, a setting or a submission. Each function prints nothing
# and returns 0 when all is well; otherwise it returns 1, and prints the reason where it
# says so.

# The one rule for a student's name, wherever one is read (a folder of SUBMISSIONS in a
# new run, a line of RUN/students when resuming): it becomes a path component and a CSV
# field, so 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit
# (so never empty, '.', '..', a hidden file nor a path).
# shellcheck disable=SC2034 # used by tools/grade-all.sh
readonly NAME_RULE="1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
valid_name() { [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]]; }

# A seed as the grader takes it (grader/src/seed_env.h): decimal digits, below 2^53.
valid_seed() {
  local s=$1
  [[ $s =~ ^[0-9]+$ ]] || return 1
  s=$(printf '%s' "$s" | sed 's/^0*//')
  [ ${#s} -le 16 ] && [ $((10#${s:-0})) -lt 9007199254740992 ]
}

# 0 when path P is DIR or below it (both real paths).
inside() { [ "$1" = "$2" ] || [ "${1#"$2"/}" != "$1" ]; }

# A field of a CSV row (RFC 4180): quoted, with its quotes doubled, when it holds a
# comma, a quote or a line break.
csv_field() {
  local f=$1
  case $f in
    *[,\"$'\r\n']*) printf '"%s"' "${f//\"/\"\"}" ;;
    *) printf '%s' "$f" ;;
  esac
}

# A student's folder is taken only if it is a folder, holds no symbolic link anywhere
# (an assignment folder that links to the course's solutions/NN, a file that links out
# of the submission) and nothing but folders and plain files (no FIFO, socket or
# device, which could hang or reach outside). Prints why not.
hostile_paths() {
  local dir=$1 bad
  if [ -L "$dir" ]; then
    echo "the submission's folder is a symbolic link (to $(readlink "$dir"))"
    return 1
  fi
  [ -d "$dir" ] || { echo "the submission's folder is gone"; return 1; }
  bad=$(find "$dir" -mindepth 1 -type l -printf '%P -> %l' -quit)
  [ -z "$bad" ] || { echo "a symbolic link in the submission: $bad"; return 1; }
  bad=$(find "$dir" -mindepth 1 ! -type f ! -type d -printf '%P' -quit)
  [ -z "$bad" ] || { echo "not a plain file or folder in the submission: $bad"; return 1; }
  return 0
}

# After a student's build in the work copy WORK: every file the compiler read for the
# student's objects (the dependency files, build/starter/*/*.d) must lie outside the
# course COURSE and the submissions folder SUBS (the work copy has its own copy of every
# file the build may read; an absolute #include of the course's solutions, or of another
# student's file, is refused). Prints the first such file, with the file that was built.
outside_reads() {
  local work=$1 course=$2 subs=$3 d dep real
  subs=$(cd "$subs" && pwd -P)
  while IFS= read -r -d '' d; do
    while IFS= read -r dep; do
      [ -n "$dep" ] || continue
      case $dep in /*) real=$(realpath -m -- "$dep") ;; *) real=$(realpath -m -- "$work/$dep") ;; esac
      if inside "$real" "$course" || inside "$real" "$subs"; then
        d=${d#"$work"/build/starter/}
        echo "${d%%/*}: its build read $real, a file outside the submission"
        return 1
      fi
    done < <(sed -e 's/\\ /\x01/g' -e 's/\\$//' "$d" | tr ' \t' '\n\n' | grep -v ':$' | tr '\001' ' ')
  done < <(find "$work/build/starter" -name '*.d' -print0 2> /dev/null)
  return 0
}
