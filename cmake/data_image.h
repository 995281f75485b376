/*
 * data_image.h: the image writer of cmake/data_ready.c (a build tool). A
 * generated table is laid out here as two arrays of 64-bit words that hold
 * no address, so the loader relocates nothing of them at a start:
 *  - the image: the structs and arrays of pointers, as the loaders make
 *    them, each pointer written as an offset (into the image, or into the
 *    pool); writable, its pointers made addresses by sl_image_fix
 *    (src/util/image.c) when a command first needs the table;
 *  - the pool: the strings and facts tables, read only (.rodata: pages of
 *    the page cache, never copied).
 * Offset 0 of either is never a target: a NULL pointer stays 0.
 */
#ifndef SL_DATA_IMAGE_H
#define SL_DATA_IMAGE_H

#include <stddef.h>
#include <stdio.h>

/* Starts an empty image and pool. */
void im_begin(void);
/* size bytes of the image, zeroed, aligned to align: their offset. */
size_t im_alloc(size_t size, size_t align);
/* Copies n bytes to the image at offset at (a struct made on the stack). */
void im_put(size_t at, const void *p, size_t n);
/* The pointer at offset at points to the image's offset target (0: NULL). */
void im_ptr(size_t at, size_t target);
/* The pointer at offset at points to the pool's offset target. */
void im_pool_ptr(size_t at, size_t target);
/* n bytes and a NUL added to the pool (strings once each): their offset. */
size_t im_pool(const char *s, size_t n);
/* The pointer at at points to a copy of s in the pool (NULL stays NULL). */
void im_str(size_t at, const char *s);
/* The pointer at at points to an array of n string pointers, each to a
 * copy of v[i] in the pool; NULL when n is 0. */
void im_strs(size_t at, char *const *v, size_t n);
/* Writes NAME (the image), NAME_pool and their fix-ups as C arrays, and
 * NAME_ready(), which makes the image's pointers addresses once. */
void im_write(FILE *out, const char *name);

#endif
