# render.mk: the CPU reference renderer's program (build/tools/render) and the
# targets that draw with it: `make render` (one image) and `make movie` (frames,
# then a video). Included by the top-level Makefile.
#
# libpng and zlib are linked statically (PNG_LIBS, in the Makefile), so the
# programs run on a GPU host without them installed.
RENDER := $(B)/tools/render
RENDER_OUT := $(B)/render
SCENE ?= rand10k
SIZE ?= 1024
MOVIE_SIZE ?= 512
FRAMES ?= 90

$(B)/tools/render.o: grader/tools/render.c $(wildcard grader/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(RENDER): $(B)/tools/render.o $(LIBGRADER)
	$(CC) -o $@.tmp$$$$ $^ $(PNG_LIBS) -pthread && mv -f $@.tmp$$$$ $@

.PHONY: render movie
render: $(RENDER) ## draw a scene with the CPU reference: make render SCENE=rand10k [SIZE=1024] (build/render/SCENE.ppm, .png)
	@mkdir -p $(RENDER_OUT)
	@$(RENDER) --scene $(SCENE) --size $(SIZE) --out $(RENDER_OUT)/$(SCENE)

movie: $(RENDER) ## frames of an animated scene, then an MP4: make movie SCENE=snow [MOVIE_SIZE=512] [FRAMES=90]
	@rm -rf $(RENDER_OUT)/$(SCENE)-frames && mkdir -p $(RENDER_OUT)/$(SCENE)-frames
	@$(RENDER) --scene $(SCENE) --size $(MOVIE_SIZE) --frames $(FRAMES) --out $(RENDER_OUT)/$(SCENE)-frames/$(SCENE) > /dev/null
	@echo "movie: $(FRAMES) frames in $(RENDER_OUT)/$(SCENE)-frames/"
	@command -v ffmpeg >/dev/null || { echo "movie: ffmpeg is not installed, so no video was made: sudo apt-get install -y ffmpeg" >&2; exit 1; }
	@ffmpeg -loglevel error -y -framerate 30 -i $(RENDER_OUT)/$(SCENE)-frames/$(SCENE)-%04d.png \
	  -vf 'scale=trunc(iw/2)*2:trunc(ih/2)*2' -pix_fmt yuv420p $(RENDER_OUT)/$(SCENE).mp4
	@echo "movie: $(RENDER_OUT)/$(SCENE).mp4"

# The previews committed with the 05 handout: 256x256 PNGs of a few scenes.
PREVIEW_SCENES := rgb rgby rand10k pattern snow biglittle
PREVIEW_DIR := assignments/05-renderer/scenes
.PHONY: scene-previews
scene-previews: $(RENDER) ## redraw the scene previews in assignments/05-renderer/scenes/ (256x256 PNG)
	@mkdir -p $(RENDER_OUT) $(PREVIEW_DIR)
	@for s in $(PREVIEW_SCENES); do $(RENDER) --scene $$s --size 256 --out $(RENDER_OUT)/preview-$$s > /dev/null && \
	  cp $(RENDER_OUT)/preview-$$s.png $(PREVIEW_DIR)/$$s.png && echo "drew $(PREVIEW_DIR)/$$s.png" || exit 1; done
