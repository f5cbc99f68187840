# assignment.mk: this assignment's own make targets, included by the top-level Makefile
# (which includes every assignments/*/assignment.mk): the CPU reference renderer's program
# (build/tools/render, tools/render.c of this folder) and the targets that draw with it, `make render`
# (one image), `make movie` (frames, then a video) and `make scene-previews`; the scene
# counts (build/tools/scene-stats); the tuning script's build (research/ of this folder).
#
# libpng and zlib are linked statically (PNG_LIBS, mk/libs.mk), so the programs run on a
# GPU host without them installed.
R05 := assignments/05-renderer
RENDER := $(B)/tools/render
RENDER_OUT := $(B)/render
SCENE ?= rand10k
SIZE ?= 1024
MOVIE_SIZE ?= 512
FRAMES ?= 90

# The CPU renderer draws every frame the spec verifies: -O3 vectorizes its loops (the same
# float operations, so the same bits as -O2; test_render checks).
$(B)/$(R05)/judge/render_cpu.o: ASSIGNMENT_CFLAGS := -O3

$(B)/tools/render.o: $(R05)/tools/render.c $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(R05)/judge -c $< -o $@

$(RENDER): $(B)/tools/render.o $(LIBCOURSE)
	$(CC) -o $@.tmp$$$$ $^ $(PNG_LIBS) -pthread && mv -f $@.tmp$$$$ $@

# What a frame of each scene asks of a renderer (blends, tile lists, bytes), counted on the
# CPU: build/tools/scene-stats (the solution's ANSWERS.md reads it).
SCENE_STATS := $(B)/tools/scene-stats
$(SCENE_STATS): $(R05)/tools/scene_stats.c $(LIBCOURSE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(R05)/judge $< $(LIBCOURSE) -o $@.tmp$$$$ -lm && mv -f $@.tmp$$$$ $@

# The tuning script (this folder's research/tune.sh, run by hand on a GPU host): its syntax,
# and its default variant (the reference's policy) built by it.
TUNE_05 := $(if $(HAVE_SOLUTIONS),$(B)/tune-05/ref)
$(B)/tune-05/ref: $(R05)/research/tune.sh $(wildcard solutions/05-renderer/* $(R05)/*.h) $(R05)/runner/runner.cu $(LIBRUNNER)
	bash -n $(R05)/research/tune.sh && NVCC=$(NVCC) ARCH=$(or $(ARCH),sm_90) bash $(R05)/research/tune.sh build ref
GPU_CARRY += $(wildcard $(B)/tune-05)

# make test builds them all and runs the tests that use them (tests/test_render.c; tests/test_tune05.c
# runs the tuning script's refusals).
test-builds: $(SCENE_STATS) $(TUNE_05)
test-run: $(RENDER)

.PHONY: render movie
# With a GPU, `make render` draws with $(SRC)'s renderer through the 05 runner
# (the runner, which starts the judge on itself; --out writes the last frame
# drawn), which has the cases of its table: SCENE at 1024, or SCENE-WxH for
# the other sizes it lists. Without a GPU, or for a size it has no case of,
# the CPU reference draws it.
R05_HARNESS := $(B)/$(SRC)/05-renderer/runner
R05_CASE = $(if $(filter 1024,$(SIZE)),$(SCENE),$(SCENE)-$(SIZE)x$(SIZE))
render: $(RENDER) $(if $(HAVE_GPU),$(R05_HARNESS) $(JUDGE)) ## draw a scene: make render SCENE=rand10k [SIZE=1024] [SRC=starter|solutions] (GPU: SRC's renderer; else the CPU reference)
	@mkdir -p $(RENDER_OUT)
	@if [ "$(HAVE_GPU)" = 1 ] && $(R05_HARNESS) --list | grep -q '^case $(R05_CASE) '; then \
	  out=$(RENDER_OUT)/$(SCENE)-$(SRC); \
	  $(R05_HARNESS) --case $(R05_CASE) --check --reps 1 --warmup 0 --out $$out.png | sed 's/^/render: /' && \
	  $(R05_HARNESS) --case $(R05_CASE) --reps 1 --warmup 0 --out $$out.ppm > /dev/null && \
	  echo "render: $(SRC)'s renderer on the GPU drew $$out.png and $$out.ppm (ok=1 above: it matches the CPU reference)"; \
	else \
	  if [ "$(HAVE_GPU)" = 1 ]; then echo "render: the 05 runner has no case $(R05_CASE) (--list shows them): drawing with the CPU reference"; \
	  else echo "render: no GPU: drawing with the CPU reference"; fi; \
	  $(RENDER) --scene $(SCENE) --size $(SIZE) --out $(RENDER_OUT)/$(SCENE); \
	fi

movie: $(RENDER) ## frames of an animated scene, then an MP4: make movie SCENE=snow [MOVIE_SIZE=512] [FRAMES=90]
	@rm -rf $(RENDER_OUT)/$(SCENE)-frames && mkdir -p $(RENDER_OUT)/$(SCENE)-frames
	@$(RENDER) --scene $(SCENE) --size $(MOVIE_SIZE) --frames $(FRAMES) --out $(RENDER_OUT)/$(SCENE)-frames/$(SCENE) > /dev/null
	@echo "movie: $(FRAMES) frames in $(RENDER_OUT)/$(SCENE)-frames/"
	@command -v ffmpeg >/dev/null || { echo "movie: ffmpeg is not installed, so no video was made: sudo apt-get install -y ffmpeg" >&2; exit 1; }
	@ffmpeg -loglevel error -y -framerate 30 -i $(RENDER_OUT)/$(SCENE)-frames/$(SCENE)-%04d.png \
	  -vf 'scale=trunc(iw/2)*2:trunc(ih/2)*2' -pix_fmt yuv420p $(RENDER_OUT)/$(SCENE).mp4
	@echo "movie: $(RENDER_OUT)/$(SCENE).mp4"

# The previews committed with the handout: 256x256 PNGs of a few scenes.
PREVIEW_SCENES := rgb rgby rand10k pattern snow biglittle
PREVIEW_DIR := $(R05)/scenes
.PHONY: scene-previews
scene-previews: $(RENDER) ## redraw the scene previews in assignments/05-renderer/scenes/ (256x256 PNG)
	@mkdir -p $(RENDER_OUT) $(PREVIEW_DIR)
	@for s in $(PREVIEW_SCENES); do $(RENDER) --scene $$s --size 256 --out $(RENDER_OUT)/preview-$$s > /dev/null && \
	  cp $(RENDER_OUT)/preview-$$s.png $(PREVIEW_DIR)/$$s.png && echo "drew $(PREVIEW_DIR)/$$s.png" || exit 1; done
