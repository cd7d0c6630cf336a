/*
 * frame-locs.h - where the frames of a profile came from: the binary
 * (path, build-id, address range), an address in it, and the source file
 * and line, for --pprof's mappings, locations and lines.
 *
 * A table beside the tree, keyed by the profile's symbol ids (frame
 * names), filled by the readers that know these things (perf.data, live,
 * pprof, perf script with srclines) as they name frames; folded input never
 * makes one, so it pays nothing.  A frame name is one pprof location: the
 * first address seen for a name is the one kept, and so are its binary and
 * line.  The strings given are copied.
 */
#ifndef FLAMETOP_FRAME_LOCS_H
#define FLAMETOP_FRAME_LOCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct frame_locs;

/* A binary frames came from (one per path and build-id). */
struct floc_binary {
	const char *path;         /* "/usr/lib/x86_64-linux-gnu/libc.so.6" */
	size_t path_len;
	const char *build_id;     /* hex ("" and 0: unknown) */
	size_t build_id_len;
	uint64_t start, limit;    /* mapped at [start, limit); 0 0: unknown */
	uint64_t offset;          /* the file offset mapped at start */
};

/* What a frame name stands for; every field may be unknown (0, NULL). */
struct floc_frame {
	uint32_t binary;          /* floc_add_binary's number; 0: none */
	uint64_t addr;            /* an address of the frame (in that
				     binary's range, floc_add_binary) */
	const char *func;         /* the function's name, as the frame's
				     name without " FILE:LINE" */
	size_t func_len;
	const char *file;         /* the source file, as full as known */
	size_t file_len;
	unsigned line;            /* 1-based; 0: unknown */
};

struct frame_locs *floc_create(void);
void floc_destroy(struct frame_locs *fl);

/*
 * The number (1, 2, ...) of the binary b, added if new.  A binary mapped
 * at another address than the first time it was added (another process)
 * keeps its first range: *shift is what to add to an address of this
 * mapping to put it there, the same file offset.
 */
uint32_t floc_add_binary(struct frame_locs *fl, const struct floc_binary *b,
			 uint64_t *shift);
/* Whether the frame of symbol sym is known (noted before). */
bool floc_known(const struct frame_locs *fl, uint32_t sym);
/*
 * Note what the frame named by symbol sym is; the first note of a symbol
 * stands.  An address outside its binary's known range widens the range.
 */
void floc_note(struct frame_locs *fl, uint32_t sym,
	       const struct floc_frame *f);

/* ---- Reading it (--pprof) ----------------------------------------------- */

/* The frame of sym into *f (strings owned by fl); false when unknown. */
bool floc_get(const struct frame_locs *fl, uint32_t sym,
	      struct floc_frame *f);
/* The number of binaries, and binary number k (1-based). */
uint32_t floc_binary_count(const struct frame_locs *fl);
const struct floc_binary *floc_binary_at(const struct frame_locs *fl,
					 uint32_t k);

#endif
