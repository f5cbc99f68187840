# header-decls.awk: the names a C or C++ header declares at file scope with external
# linkage (functions, variables, kernels), one a line: what grader/inspect/inspect-student.sh takes for
# an assignment's interface (assignments/NN/*.h). Comments, literals and preprocessor
# lines are dropped; a statement that is static, inline, constexpr, a typedef, a template,
# a using or a namespace declares nothing here, nor does anything inside braces (bodies,
# types, initializers) but an extern "C" { } block. A name counts where it is followed,
# outside parentheses, by ( [ = , or ;. The course's headers are plain declarations;
# test_inspect.c checks what this finds in each of them.
function name_ok(t) { return t != "" && !(t in KW) }
BEGIN {
  split("if while for switch return sizeof alignof alignas decltype __attribute__ __declspec __launch_bounds__ __align__ static_assert noexcept throw operator", kw, " ")
  for (k in kw) KW[kw[k]] = 1
}
{ text = text $0 "\n" }
END {
  gsub(/\\\n/, " ", text)
  # comments and literals out, kept line by line so that preprocessor lines can go next
  out = ""; n = length(text); i = 1
  while (i <= n) {
    c = substr(text, i, 1); d = substr(text, i, 2)
    if (d == "//") { while (i <= n && substr(text, i, 1) != "\n") i++; continue }
    if (d == "/*") { j = index(substr(text, i + 2), "*/"); i = j ? i + j + 3 : n + 1; out = out " "; continue }
    if (c == "\"" || c == "'") {
      q = c; i++
      while (i <= n && substr(text, i, 1) != q) { if (substr(text, i, 1) == "\\") i++; i++ }
      i++; out = out " @ "; continue
    }
    out = out c; i++
  }
  m = split(out, lines, "\n"); body = ""
  for (k = 1; k <= m; k++) if (lines[k] !~ /^[ \t]*#/) body = body lines[k] " "
  n = length(body); i = 1; depth = 0; paren = 0; skip = 0; last = ""; linkage = 0; prev = ""
  while (i <= n) {
    c = substr(body, i, 1)
    if (c ~ /[A-Za-z_]/) {
      j = i; while (j <= n && substr(body, j, 1) ~ /[A-Za-z0-9_]/) j++
      tok = substr(body, i, j - i); i = j
      if (depth == 0 && paren == 0) {
        if (tok ~ /^(static|typedef|inline|template|using|namespace|constexpr)$/) skip = 1
        last = tok; prev = tok
      }
      continue
    }
    if (c == "@") { if (prev == "extern") linkage = 1; i++; continue }
    if (depth == 0 && paren == 0) {
      if (c == "(" || c == ";" || c == "[" || c == "=" || c == ",") { if (!skip && name_ok(last)) print last }
    }
    if (c == "(") paren++
    else if (c == ")") paren--
    else if (c == "{") {
      if (linkage && depth == 0 && paren == 0) linkage = 0
      else { if (depth == 0) body_fn = (lastc == ")"); depth++ }
    }
    else if (c == "}") { if (depth > 0) depth--; if (depth == 0 && body_fn) skip = 0 }
    else if (c == ";" && depth == 0 && paren == 0) { skip = 0; linkage = 0 }
    if (c !~ /[ \t\n*&]/ || c == "(") { last = ""; if (c != "(" ) prev = "" }
    if (c !~ /[ \t\n]/) lastc = c
    i++
  }
}
