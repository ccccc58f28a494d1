/* SPDX-License-Identifier: ISC */
/*
 * Lists of labels and their indexes (labels.h).
 *
 * The index hashes with PostgreSQL's hash_bytes_extended under a seed
 * this process draws once from the operating system, so that labels
 * cannot be chosen to fall on one slot (each process builds its own
 * indexes from the labels; no hash crosses processes).  Labels are
 * compared byte for byte: the index is exact.
 */
#include "labels.h"

#include "dpsel_pg.h"

#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#define LENGTH_SIZE ((int64) sizeof(int32))

void
label_list_init(LabelList *list, MemoryContext cxt)
{
	list->cxt = cxt;
	list->bytes = NULL;
	list->used = 0;
	list->room = 0;
	list->count = 0;
}

/* Room for `more` bytes (doubling, at least 256). */
static void
reserve(LabelList *list, int64 more)
{
	int64		room = Max(list->room, 256);

	if ((uint64) more > MaxAllocHugeSize / 2 - (uint64) list->used)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("dpsel: a group's labels take more than %zu bytes", MaxAllocHugeSize / 2)));
	while (room < list->used + more)
		room *= 2;
	if (list->bytes == NULL)
		list->bytes = MemoryContextAllocHuge(list->cxt, room);
	else if (room != list->room)
		list->bytes = repalloc_huge(list->bytes, room);
	list->room = room;
}

void
label_list_add(LabelList *list, Label label)
{
	reserve(list, LENGTH_SIZE + label.length);
	memcpy(list->bytes + list->used, &label.length, LENGTH_SIZE);
	memcpy(list->bytes + list->used + LENGTH_SIZE, label.data, label.length);
	list->used += LENGTH_SIZE + label.length;
	list->count++;
}

void
label_list_append(LabelList *into, const LabelList *from)
{
	if (from->used == 0)
		return;
	reserve(into, from->used);
	memcpy(into->bytes + into->used, from->bytes, from->used);
	into->used += from->used;
	into->count += from->count;
}

bool
label_list_equal(const LabelList *a, const LabelList *b)
{
	return a->count == b->count && a->used == b->used
		&& (a->used == 0 || memcmp(a->bytes, b->bytes, a->used) == 0);
}

Label
label_list_at(const LabelList *list, int64 *offset)
{
	Label		label;

	memcpy(&label.length, list->bytes + *offset, LENGTH_SIZE);
	label.data = list->bytes + *offset + LENGTH_SIZE;
	*offset += LENGTH_SIZE + label.length;
	return label;
}

int64
label_list_sent_size(const LabelList *list)
{
	return 2 * (int64) sizeof(int64) + list->used;
}

/* The kinds keep their states within pg_dpsel_check_room, in every plan:
 * a longer one here is a bug. */
void
label_list_send(StringInfo buf, const LabelList *list)
{
	if (list->used > (int64) (MaxAllocSize / 2))
		elog(ERROR, "dpsel: a state's labels past the room its kind checked");
	pq_sendint64(buf, (uint64) list->count);
	pq_sendint64(buf, (uint64) list->used);
	/* the lengths in this machine's order: states cross processes of one
	 * server, and the receiver checks every length against the size */
	if (list->used > 0)
		pq_sendbytes(buf, list->bytes, (int) list->used);
}

void
label_list_receive(StringInfo msg, LabelList *list, MemoryContext cxt)
{
	int64		count = (int64) pq_getmsgint64(msg);
	int64		size = (int64) pq_getmsgint64(msg);
	int64		offset = 0;

	if (count < 0 || size < 0 || size > msg->len - msg->cursor || count > size / LENGTH_SIZE)
		pg_dpsel_malformed("wrong size of the labels");
	label_list_init(list, cxt);
	if (size == 0)
	{
		if (count != 0)
			pg_dpsel_malformed("labels without bytes");
		return;
	}
	reserve(list, size);
	memcpy(list->bytes, pq_getmsgbytes(msg, (int) size), size);
	list->used = size;
	list->count = count;
	for (int64 i = 0; i < count; i++)
	{
		int32		length;

		if (size - offset < LENGTH_SIZE)
			pg_dpsel_malformed("a label past the end");
		memcpy(&length, list->bytes + offset, LENGTH_SIZE);
		if (length < 0 || length > size - offset - LENGTH_SIZE)
			pg_dpsel_malformed("a label's length past the end");
		offset += LENGTH_SIZE + length;
	}
	if (offset != size)
		pg_dpsel_malformed("bytes after the labels");
}

/* ---------------------------------------------------------------- index */

static uint64
label_hash(Label label)
{
	static uint64 seed;
	static bool seeded = false;

	if (!seeded)
	{
		if (!pg_strong_random(&seed, sizeof seed))
			ereport(ERROR,
					(errcode(ERRCODE_SYSTEM_ERROR),
					 errmsg("dpsel: no random seed for the labels' index")));
		seeded = true;
	}
	return hash_bytes_extended((const unsigned char *) label.data, label.length, seed);
}

static bool
same_label(Label a, Label b)
{
	return a.length == b.length && memcmp(a.data, b.data, a.length) == 0;
}

static Label
indexed_label(const LabelIndex *index, uint64 i)
{
	int64		offset = index->offsets[i];

	return label_list_at(index->list, &offset);
}

/*
 * A slot holds a label's position + 1 in its low 32 bits and its hash's
 * high 32 bits above them (0: empty), so that a probe reads a label only
 * when those bits agree.
 */
#define SLOT_POSITION(slot) ((slot) & PG_UINT32_MAX)
#define SLOT_TAG(hash) ((hash) & ~(uint64) PG_UINT32_MAX)

/* The slot of label: where it is, or the empty slot where it would go;
 * *hash receives the label's hash. */
static uint64
slot_of(const LabelIndex *index, Label label, uint64 *hash)
{
	uint64		slot;

	*hash = label_hash(label);
	slot = *hash & index->mask;
	while (index->slots[slot] != 0
		   && (SLOT_TAG(index->slots[slot]) != SLOT_TAG(*hash)
			   || !same_label(indexed_label(index, SLOT_POSITION(index->slots[slot]) - 1), label)))
		slot = (slot + 1) & index->mask;
	return slot;
}

bool
label_index_build(LabelIndex *index, const LabelList *list, Label *twice)
{
	uint64		slots = 16;
	int64		offset = 0;

	if (list->count >= (int64) PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("dpsel: a group of " INT64_FORMAT " labels, more than %u", list->count,
						PG_UINT32_MAX - 1)));
	/* at most half full: probes stay short */
	while (slots < 2 * (uint64) list->count)
		slots *= 2;
	index->list = list;
	index->mask = slots - 1;
	index->offsets = palloc_extended(Max(list->count, 1) * sizeof(int64), MCXT_ALLOC_HUGE);
	index->slots = palloc_extended(slots * sizeof(uint64), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int64 i = 0; i < list->count; i++)
	{
		Label		label;
		uint64		slot;
		uint64		hash;

		if ((i & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		index->offsets[i] = offset;
		label = label_list_at(list, &offset);
		slot = slot_of(index, label, &hash);
		if (index->slots[slot] != 0)
		{
			*twice = label;
			return false;
		}
		index->slots[slot] = SLOT_TAG(hash) | ((uint64) i + 1);
	}
	return true;
}

int64
label_index_find(const LabelIndex *index, Label label)
{
	uint64		hash;

	return (int64) SLOT_POSITION(index->slots[slot_of(index, label, &hash)]) - 1;
}

void
label_index_free(LabelIndex *index)
{
	pfree(index->offsets);
	pfree(index->slots);
}
