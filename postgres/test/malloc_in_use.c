/* SPDX-License-Identifier: ISC */
/*
 * A test-only SQL function for postgres/test/run.sh's leak checks (never
 * installed): the bytes a backend's malloc holds in use, the heap's and the
 * mmapped blocks' (glibc's mallinfo2).  Unlike the resident size, this does
 * not move with what the allocator keeps or returns to the system, so a run
 * that leaves memory behind shows as growth, and one that does not, as none.
 */
#include <malloc.h>

#include "postgres.h"
#include "fmgr.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(dpsel_test_malloc_in_use);

Datum
dpsel_test_malloc_in_use(PG_FUNCTION_ARGS)
{
	struct mallinfo2 info = mallinfo2();

	(void) fcinfo;
	PG_RETURN_INT64((int64) (info.uordblks + info.hblkhd));
}
