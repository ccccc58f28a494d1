/* SPDX-License-Identifier: ISC */
/*
 * The benchmark's measurement hooks: a counting allocator (peak extra heap of
 * a call) and a counting bit source (random bits a selection consumes).
 */
#include <malloc.h>
#include <sys/random.h>

#include "bench.h"

/*
 * glibc lets a program replace malloc, calloc, realloc and free (glibc manual,
 * "Replacing malloc"): every allocation in the process, in dpsel, GMP, MPFR
 * and libc alike, then goes through these, which forward to glibc's own
 * allocator and count the usable size of each block.  The counters are
 * process-wide like the allocator itself; the benchmark has one thread.
 * Aligned allocations (memalign and kin) are not counted; nothing on the
 * measured paths makes them.
 */
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *block, size_t size);
void __libc_free(void *block);

static size_t live_bytes, peak_bytes;

static void *counted(void *block)
{
    live_bytes += malloc_usable_size(block);  /* 0 for NULL */
    peak_bytes = live_bytes > peak_bytes ? live_bytes : peak_bytes;
    return block;
}

static void uncount(void *block)
{
    size_t size = malloc_usable_size(block);
    live_bytes -= size < live_bytes ? size : live_bytes;  /* an uncounted block */
}

void *malloc(size_t size)
{
    return counted(__libc_malloc(size));
}

void *calloc(size_t count, size_t size)
{
    return counted(__libc_calloc(count, size));
}

void *realloc(void *block, size_t size)
{
    size_t old = malloc_usable_size(block);
    void *moved = __libc_realloc(block, size);
    if (moved == NULL && size != 0) {
        return NULL;  /* block untouched */
    }
    live_bytes -= old < live_bytes ? old : live_bytes;
    return counted(moved);
}

void free(void *block)
{
    uncount(block);
    __libc_free(block);
}

size_t alloc_mark(void)
{
    peak_bytes = live_bytes;
    return live_bytes;
}

size_t alloc_peak_since(size_t mark)
{
    return peak_bytes - mark;
}

/* Bits in order from 256-byte getrandom reads (which are never short). */
int counting_bit(void *context, unsigned *bit)
{
    counting_source *source = context;
    size_t position = source->bits % (8 * sizeof source->buffer);
    if (position == 0
        && getrandom(source->buffer, sizeof source->buffer, 0) != (ssize_t)sizeof source->buffer) {
        return -1;
    }
    *bit = (source->buffer[position / 8] >> (position % 8)) & 1u;
    source->bits++;
    return 0;
}
