/* test_includes.c: the grader's modules include one another without a circle,
 * and its object files call one another without a circle.
 *
 * A module is a .c/.h pair (the path without its extension: grader/judge/verdict
 * is verdict.c and verdict.h; a lone .c, .h, .cu or .cuh is a module of its own).
 * Module A depends on module B when a file of A has `#include "b.h"` for a file
 * of B. The test reads every .c, .h, .cu and .cuh under grader/ (every folder,
 * whatever they are called), resolves each quoted include first beside the file
 * and then in any folder under grader/ (the build's -I folders), ignores the
 * names that are not under grader/ (inih, an assignment's headers), and fails
 * on a circle, naming it: the file that starts it, then each header in turn
 * (`grader/judge/parallel.c -> verdict.h -> parallel.h`), and the file:line of
 * every include on the way.
 *
 * Calls: object A calls object B when A leaves a symbol undefined that B defines
 * (nm). The objects are those of build/grader/libgrader.a (grader/src,
 * grader/lib, grader/protocol), build/runner/ and build/judge/ (the
 * judge, the specs); a circle is named with the symbols on the way
 * (`conf.o -> conf_keys.o (conf_key_parse) -> conf.o (conf_perr)`). Run from the
 * repository root, after the build. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests.h"

typedef struct inc_file {
  char *path;
  int module;
} inc_file;

typedef struct inc_edge {
  int from, to;   /* modules */
  int file, line; /* the include: which file, which line */
  char *name;     /* as written between the quotes */
} inc_edge;

typedef struct inc_graph {
  inc_file *files;
  int n_files, cap_files;
  char **modules;
  int n_modules, cap_modules;
  inc_edge *edges;
  int n_edges, cap_edges;
} inc_graph;

static int is_source(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot && (!strcmp(dot, ".c") || !strcmp(dot, ".h") || !strcmp(dot, ".cu") || !strcmp(dot, ".cuh"));
}

static int module_of(inc_graph *g, const char *path) {
  char m[1024];
  snprintf(m, sizeof m, "%s", path);
  char *dot = strrchr(m, '.');
  if (dot && !strchr(dot, '/')) *dot = 0;
  for (int i = 0; i < g->n_modules; i++)
    if (!strcmp(g->modules[i], m)) return i;
  if (g->n_modules == g->cap_modules) {
    g->cap_modules = g->cap_modules ? 2 * g->cap_modules : 64;
    g->modules = realloc(g->modules, (size_t)g->cap_modules * sizeof *g->modules);
    ck_assert_ptr_nonnull(g->modules);
  }
  g->modules[g->n_modules] = strdup(m);
  return g->n_modules++;
}

/* Every source file under dir, at any depth. */
static void scan_dir(inc_graph *g, const char *dir) {
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s (run the tests from the repository root)", dir);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st)) continue;
    if (S_ISDIR(st.st_mode)) {
      scan_dir(g, path);
    } else if (S_ISREG(st.st_mode) && is_source(e->d_name)) {
      if (g->n_files == g->cap_files) {
        g->cap_files = g->cap_files ? 2 * g->cap_files : 256;
        g->files = realloc(g->files, (size_t)g->cap_files * sizeof *g->files);
        ck_assert_ptr_nonnull(g->files);
      }
      g->files[g->n_files].path = strdup(path);
      g->n_files++;
    }
  }
  closedir(d);
}

/* dir/name with "." and ".." folded away. */
static void join_normal(char *out, size_t cap, const char *dir, const char *name) {
  char tmp[2048];
  snprintf(tmp, sizeof tmp, "%s/%s", dir, name);
  char *parts[128];
  int n = 0;
  for (char *save = NULL, *t = strtok_r(tmp, "/", &save); t && n < 128; t = strtok_r(NULL, "/", &save)) {
    if (!strcmp(t, ".")) continue;
    if (!strcmp(t, "..") && n > 0 && strcmp(parts[n - 1], "..")) {
      n--;
      continue;
    }
    parts[n++] = t;
  }
  snprintf(out, cap, "%s", dir[0] == '/' ? "/" : "");
  for (int i = 0; i < n; i++) {
    strncat(out, parts[i], cap - strlen(out) - 1);
    if (i + 1 < n) strncat(out, "/", cap - strlen(out) - 1);
  }
}

static int ends_with_path(const char *path, const char *name) {
  size_t lp = strlen(path), ln = strlen(name);
  return lp > ln && path[lp - ln - 1] == '/' && !strcmp(path + lp - ln, name);
}

/* The file `#include "name"` in file f means: beside f first, then any file under
 * the root whose path ends with /name (the first in path order); -1 when none. */
static int resolve(const inc_graph *g, int f, const char *name) {
  char dir[1024], cand[2048];
  snprintf(dir, sizeof dir, "%s", g->files[f].path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  join_normal(cand, sizeof cand, dir, name);
  for (int i = 0; i < g->n_files; i++)
    if (!strcmp(g->files[i].path, cand)) return i;
  int best = -1;
  for (int i = 0; i < g->n_files; i++)
    if (ends_with_path(g->files[i].path, name) && (best < 0 || strcmp(g->files[i].path, g->files[best].path) < 0))
      best = i;
  return best;
}

static void add_edges(inc_graph *g, int f) {
  FILE *in = fopen(g->files[f].path, "r");
  ck_assert_msg(in != NULL, "cannot read %s", g->files[f].path);
  char buf[4096];
  for (int line = 1; fgets(buf, sizeof buf, in); line++) {
    const char *s = buf + strspn(buf, " \t");
    if (*s != '#') continue;
    s += 1 + strspn(s + 1, " \t");
    if (strncmp(s, "include", 7)) continue;
    s += 7 + strspn(s + 7, " \t");
    if (*s != '"') continue;
    const char *end = strchr(s + 1, '"');
    if (!end) continue;
    char name[1024];
    snprintf(name, sizeof name, "%.*s", (int)(end - s - 1), s + 1);
    int t = resolve(g, f, name);
    if (t < 0 || g->files[t].module == g->files[f].module) continue;
    if (g->n_edges == g->cap_edges) {
      g->cap_edges = g->cap_edges ? 2 * g->cap_edges : 256;
      g->edges = realloc(g->edges, (size_t)g->cap_edges * sizeof *g->edges);
      ck_assert_ptr_nonnull(g->edges);
    }
    g->edges[g->n_edges++] = (inc_edge){g->files[f].module, g->files[t].module, f, line, strdup(name)};
  }
  fclose(in);
}

static int by_path(const void *a, const void *b) {
  return strcmp(((const inc_file *)a)->path, ((const inc_file *)b)->path);
}

static void graph_build(inc_graph *g, const char *root) {
  memset(g, 0, sizeof *g);
  scan_dir(g, root);
  /* In path order, so a circle is named from the same file on every machine. */
  qsort(g->files, (size_t)g->n_files, sizeof *g->files, by_path);
  for (int f = 0; f < g->n_files; f++) g->files[f].module = module_of(g, g->files[f].path);
  for (int f = 0; f < g->n_files; f++) add_edges(g, f);
}

static void graph_free(inc_graph *g) {
  for (int i = 0; i < g->n_files; i++) free(g->files[i].path);
  for (int i = 0; i < g->n_modules; i++) free(g->modules[i]);
  for (int i = 0; i < g->n_edges; i++) free(g->edges[i].name);
  free(g->files), free(g->modules), free(g->edges);
}

/* Depth-first search over modules; on the first edge back into the path, writes
 * the circle into msg and returns 1. */
typedef struct dfs_state {
  const inc_graph *g;
  int *color;     /* 0 unseen, 1 on the path, 2 done */
  int *path_edge; /* the edges of the path, by depth */
  int depth;
} dfs_state;

static void describe(const dfs_state *st, int first, int last_edge, char *msg, size_t cap) {
  const inc_graph *g = st->g;
  int k = 0, chain[512];
  for (int i = first; i < st->depth && k < 511; i++) chain[k++] = st->path_edge[i];
  chain[k++] = last_edge;
  size_t len = (size_t)snprintf(msg, cap, "include circle: %s", g->files[g->edges[chain[0]].file].path);
  for (int i = 0; i < k && len < cap; i++) len += (size_t)snprintf(msg + len, cap - len, " -> %s", g->edges[chain[i]].name);
  for (int i = 0; i < k && len < cap; i++)
    len += (size_t)snprintf(msg + len, cap - len, "%s%s:%d", i ? ", " : " (the includes: ",
                            g->files[g->edges[chain[i]].file].path, g->edges[chain[i]].line);
  if (len < cap) snprintf(msg + len, cap - len, ")");
}

static int dfs(dfs_state *st, int m, char *msg, size_t cap) {
  st->color[m] = 1;
  for (int e = 0; e < st->g->n_edges; e++) {
    if (st->g->edges[e].from != m) continue;
    int t = st->g->edges[e].to;
    if (st->color[t] == 1) {
      int first = 0;
      while (first < st->depth && st->g->edges[st->path_edge[first]].from != t) first++;
      describe(st, first, e, msg, cap);
      return 1;
    }
    if (st->color[t] == 0) {
      st->path_edge[st->depth++] = e;
      if (dfs(st, t, msg, cap)) return 1;
      st->depth--;
    }
  }
  st->color[m] = 2;
  return 0;
}

/* 1 and the circle in msg when the modules under root include one another in a circle. */
static int find_circle(const inc_graph *g, char *msg, size_t cap) {
  dfs_state st = {g, calloc((size_t)g->n_modules + 1, sizeof(int)), calloc((size_t)g->n_modules + 1, sizeof(int)), 0};
  ck_assert_ptr_nonnull(st.color);
  ck_assert_ptr_nonnull(st.path_edge);
  int found = 0;
  for (int m = 0; m < g->n_modules && !found; m++)
    if (!st.color[m]) found = dfs(&st, m, msg, cap);
  free(st.color), free(st.path_edge);
  return found;
}

START_TEST(test_grader_has_no_circle) {
  inc_graph g;
  graph_build(&g, "grader");
  /* A scanner that read nothing would find no circle: the grader has well over
   * a hundred files and their includes. */
  ck_assert_int_gt(g.n_files, 60);
  ck_assert_int_gt(g.n_edges, 100);
  int across = 0; /* includes from one folder of grader/ into another (judge -> lib) */
  for (int e = 0; e < g.n_edges; e++) {
    const char *a = g.files[g.edges[e].file].path;
    const char *b = g.modules[g.edges[e].to];
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    across += (sa - a != sb - b) || strncmp(a, b, (size_t)(sa - a));
  }
  ck_assert_int_gt(across, 20);
  char msg[4096] = "";
  int found = find_circle(&g, msg, sizeof msg);
  ck_assert_msg(!found, "%s: move what both sides need into a module below them", msg);
  graph_free(&g);
}
END_TEST

/* The finder itself, on a tree made for it: two folders whose modules include
 * each other (a/x.c -> y.h, b/y.c -> ../a/x.h), and a third that only uses them. */
START_TEST(test_finds_a_circle) {
  char *dir = make_temp_dir("includes");
  char p[1024];
  snprintf(p, sizeof p, "%s/a/x.h", dir), write_text(p, "#include <stdio.h>\n", 0);
  snprintf(p, sizeof p, "%s/a/x.c", dir), write_text(p, "#include \"x.h\"\n\n#include \"y.h\"\n", 0);
  snprintf(p, sizeof p, "%s/b/y.h", dir), write_text(p, "#include <stddef.h>\n", 0);
  snprintf(p, sizeof p, "%s/b/y.c", dir), write_text(p, "#include \"y.h\"\n#include \"../a/x.h\"\n", 0);
  snprintf(p, sizeof p, "%s/c/z.cu", dir), write_text(p, "#include \"x.h\"\n#include \"y.h\"\n#include \"ini.h\"\n", 0);
  inc_graph g;
  graph_build(&g, dir);
  ck_assert_int_eq(g.n_files, 5);
  ck_assert_int_eq(g.n_modules, 3);
  ck_assert_int_eq(g.n_edges, 4); /* ini.h is not under the root; x.c -> x.h is inside a module */
  char msg[4096] = "", want[2048];
  ck_assert_int_eq(find_circle(&g, msg, sizeof msg), 1);
  snprintf(want, sizeof want, "include circle: %s/a/x.c -> y.h -> ../a/x.h (the includes: %s/a/x.c:3, %s/b/y.c:2)", dir,
           dir, dir);
  ck_assert_str_eq(msg, want);
  graph_free(&g);
  /* Broken, the circle goes. */
  snprintf(p, sizeof p, "%s/b/y.c", dir), write_text(p, "#include \"y.h\"\n", 0);
  graph_build(&g, dir);
  ck_assert_int_eq(find_circle(&g, msg, sizeof msg), 0);
  graph_free(&g);
  remove_dir(dir);
  free(dir);
}
END_TEST

/* ---------------------------------------------------------------- calls */

typedef struct call_sym {
  char *name;
  int obj;
} call_sym;

typedef struct call_graph {
  char **objs;
  int n_objs;
  call_sym *defs, *uses;
  int n_defs, n_uses;
} call_graph;

static int call_obj(call_graph *g, const char *name) {
  for (int i = 0; i < g->n_objs; i++)
    if (!strcmp(g->objs[i], name)) return i;
  g->objs = realloc(g->objs, (size_t)(g->n_objs + 1) * sizeof *g->objs);
  ck_assert_ptr_nonnull(g->objs);
  g->objs[g->n_objs] = strdup(name);
  return g->n_objs++;
}

static void call_add(call_sym **v, int *n, const char *name, int obj) {
  if (*n == 0 || (*n >= 64 && !(*n & (*n - 1)))) { /* 64, then doubled whenever full */
    *v = realloc(*v, (size_t)(*n ? 2 * *n : 64) * sizeof **v);
    ck_assert_ptr_nonnull(*v);
  }
  (*v)[(*n)++] = (call_sym){strdup(name), obj};
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const call_sym *)a)->name, ((const call_sym *)b)->name);
}

/* Reads `nm -A -P FILES` ("file[member]: symbol type ..." a line); an object is
 * the member of an archive, or the file, shown by its base name. */
static void call_graph_build(call_graph *g, const char *files) {
  memset(g, 0, sizeof *g);
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "nm -A -P %s", files);
  FILE *p = popen(cmd, "r");
  ck_assert_msg(p != NULL, "%s", cmd);
  char line[4096];
  while (fgets(line, sizeof line, p)) {
    char *colon = strstr(line, ": ");
    if (!colon) continue;
    *colon = 0;
    char *file = line, *open = strrchr(file, '['), *slash;
    if (open) {
      file = open + 1;
      file[strcspn(file, "]")] = 0;
    } else if ((slash = strrchr(file, '/'))) {
      file = slash + 1;
    }
    char sym[1024], type[8];
    if (sscanf(colon + 2, "%1023s %7s", sym, type) != 2) continue;
    int obj = call_obj(g, file);
    if (!strcmp(type, "U")) call_add(&g->uses, &g->n_uses, sym, obj);
    else if (strchr("TDBRGSVWC", type[0]) && type[0] != 'w') call_add(&g->defs, &g->n_defs, sym, obj);
  }
  ck_assert_msg(pclose(p) == 0, "%s failed (build the grader, the runner library and the judge first)", cmd);
  qsort(g->defs, (size_t)g->n_defs, sizeof *g->defs, by_name);
}

static void call_graph_free(call_graph *g) {
  for (int i = 0; i < g->n_objs; i++) free(g->objs[i]);
  for (int i = 0; i < g->n_defs; i++) free(g->defs[i].name);
  for (int i = 0; i < g->n_uses; i++) free(g->uses[i].name);
  free(g->objs), free(g->defs), free(g->uses);
}

/* The object that defines use u's symbol (another object than u's), or -1. */
static int call_target(const call_graph *g, int u) {
  const call_sym *d = bsearch(&g->uses[u], g->defs, (size_t)g->n_defs, sizeof *g->defs, by_name);
  return d && d->obj != g->uses[u].obj ? d->obj : -1;
}

typedef struct call_dfs {
  const call_graph *g;
  int *color, *path_use, depth;
} call_dfs;

static int call_visit(call_dfs *st, int o, char *msg, size_t cap) {
  st->color[o] = 1;
  for (int u = 0; u < st->g->n_uses; u++) {
    int t;
    if (st->g->uses[u].obj != o || (t = call_target(st->g, u)) < 0) continue;
    if (st->color[t] == 1) {
      int first = 0;
      while (first < st->depth && st->g->uses[st->path_use[first]].obj != t) first++;
      size_t len = (size_t)snprintf(msg, cap, "call circle: %s", st->g->objs[t]);
      for (int i = first; i <= st->depth && len < cap; i++) {
        int w = i < st->depth ? st->path_use[i] : u, to = call_target(st->g, w);
        len += (size_t)snprintf(msg + len, cap - len, " -> %s (%s)", st->g->objs[to], st->g->uses[w].name);
      }
      return 1;
    }
    if (st->color[t] == 0) {
      st->path_use[st->depth++] = u;
      if (call_visit(st, t, msg, cap)) return 1;
      st->depth--;
    }
  }
  st->color[o] = 2;
  return 0;
}

/* 1 and the circle in msg when the objects call one another in a circle. */
static int find_call_circle(const call_graph *g, char *msg, size_t cap) {
  call_dfs st = {g, calloc((size_t)g->n_objs + 1, sizeof(int)), calloc((size_t)g->n_objs + 1, sizeof(int)), 0};
  ck_assert_ptr_nonnull(st.color);
  ck_assert_ptr_nonnull(st.path_use);
  int found = 0;
  for (int o = 0; o < g->n_objs && !found; o++)
    if (!st.color[o]) found = call_visit(&st, o, msg, cap);
  free(st.color), free(st.path_use);
  return found;
}

START_TEST(test_grader_has_no_call_circle) {
  call_graph g;
  call_graph_build(&g, "build/grader/libgrader.a build/runner/*.o build/judge/*.o");
  /* A reader that read nothing would find no circle. */
  ck_assert_int_gt(g.n_objs, 50);
  ck_assert_int_gt(g.n_defs, 150);
  int calls = 0;
  for (int u = 0; u < g.n_uses; u++) calls += call_target(&g, u) >= 0;
  ck_assert_int_gt(calls, 200);
  char msg[4096] = "";
  int found = find_call_circle(&g, msg, sizeof msg);
  ck_assert_msg(!found, "%s: move what both sides call into a module below them", msg);
  call_graph_free(&g);
}
END_TEST

/* The finder itself, on objects made for it: x.o and y.o call each other, z.o
 * calls both; then y.o no longer calls x.o. */
START_TEST(test_finds_a_call_circle) {
  char *dir = make_temp_dir("calls");
  char p[1024], cmd[2048];
  snprintf(p, sizeof p, "%s/x.c", dir), write_text(p, "int call_y(void);\nint call_x(void) { return call_y() + 1; }\n", 0);
  snprintf(p, sizeof p, "%s/y.c", dir), write_text(p, "int call_x(void);\nint call_y(void) { return call_x() - 1; }\n", 0);
  snprintf(p, sizeof p, "%s/z.c", dir), write_text(p, "int call_x(void), call_y(void);\nint call_z(void) { return call_x() + call_y(); }\n", 0);
  snprintf(cmd, sizeof cmd, "cd '%s' && cc -c x.c y.c z.c", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(cmd, sizeof cmd, "'%s'/x.o '%s'/y.o '%s'/z.o", dir, dir, dir);
  call_graph g;
  call_graph_build(&g, cmd);
  ck_assert_int_eq(g.n_objs, 3);
  char msg[4096] = "";
  ck_assert_int_eq(find_call_circle(&g, msg, sizeof msg), 1);
  ck_assert_str_eq(msg, "call circle: x.o -> y.o (call_y) -> x.o (call_x)");
  call_graph_free(&g);
  /* Broken, the circle goes. */
  snprintf(p, sizeof p, "%s/y.c", dir), write_text(p, "int call_y(void) { return 2; }\n", 0);
  snprintf(cmd, sizeof cmd, "cd '%s' && cc -c y.c", dir);
  ck_assert_int_eq(run_shell(cmd), 0);
  snprintf(cmd, sizeof cmd, "'%s'/x.o '%s'/y.o '%s'/z.o", dir, dir, dir);
  call_graph_build(&g, cmd);
  ck_assert_int_eq(find_call_circle(&g, msg, sizeof msg), 0);
  call_graph_free(&g);
  remove_dir(dir);
  free(dir);
}
END_TEST

Suite *includes_suite(void) {
  Suite *s = suite_create("includes");
  TCase *tc = tcase_create("includes");
  tcase_add_test(tc, test_grader_has_no_circle);
  tcase_add_test(tc, test_finds_a_circle);
  tcase_add_test(tc, test_grader_has_no_call_circle);
  tcase_add_test(tc, test_finds_a_call_circle);
  suite_add_tcase(s, tc);
  return s;
}
