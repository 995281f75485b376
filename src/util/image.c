/*
 * image.c: a built-in table's image made ready (cmake/data_image.h says
 * what the build writes): its pointers, offsets until then, made addresses.
 * The image is in .data, so each page it spans is copied on its first
 * write; the kernel is asked for them all at once (MADV_POPULATE_WRITE,
 * Linux 5.14), a page fault each spared: where the loader relocated the
 * same pointers at every start, page by page (issue 18).
 */
#include "util.h"

#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Adds base to the words that fix lists, packed as DT_RELR packs
 * relocations: an even entry is a word's index << 1, an odd one a bitmap
 * of the 63 words after the last one fixed or covered. */
static void fix_words(uint64_t *img, uint64_t base, const uint64_t *fix, size_t n)
{
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = fix[i];
		if (!(r & 1)) {
			at = (size_t)(r >> 1);
			img[at++] += base;
			continue;
		}
		/* the set bits only: a few instructions a pointer */
		for (r >>= 1; r; r &= r - 1)
			img[at + (size_t)__builtin_ctzll(r)] += base;
		at += 63;
	}
}

void sl_image_fix(uint64_t *img, size_t nimg, const uint64_t *pool, const uint64_t *fix, size_t nfix,
		  const uint64_t *pool_fix, size_t npool_fix)
{
	/* an older kernel refuses the advice: the pages then fault one by one */
	uintptr_t page = (uintptr_t)img & ~(uintptr_t)4095;
	(void)madvise((void *)page, (uintptr_t)(img + nimg) - page, MADV_POPULATE_WRITE);
	fix_words(img, (uint64_t)(uintptr_t)img, fix, nfix);
	fix_words(img, (uint64_t)(uintptr_t)pool, pool_fix, npool_fix);
}
