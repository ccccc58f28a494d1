/* SPDX-License-Identifier: ISC */
/*
 * Lists of labels (labels.c): the candidates a selection's rows named, or
 * the public candidates of dpsel_mode.
 *
 * A LabelList holds its labels' bytes one after another, each after its
 * length (4 bytes): adding a label appends, two lists concatenate by one
 * copy, and the list goes to and from a serialised state as it is.  A
 * LabelIndex, built over a list when needed, finds a label's position and
 * tells whether the list holds one label twice.  Memory per label: its
 * bytes and 4 in the list (up to twice that while the list grows), and 24
 * to 40 in an index while it lives (its position, two to four 8-byte slots).
 */
#ifndef DPSEL_PG_LABELS_H
#define DPSEL_PG_LABELS_H

#include "postgres.h"

#include "lib/stringinfo.h"

typedef struct LabelList
{
	MemoryContext cxt;			/* where bytes lives */
	char	   *bytes;			/* each label: its length (int32), its bytes */
	int64		used;
	int64		room;
	int64		count;
} LabelList;

/* A label: a view into a list, a row or a message. */
typedef struct Label
{
	const char *data;
	int32		length;
} Label;

typedef struct LabelIndex
{
	const LabelList *list;
	int64	   *offsets;		/* where label i starts in list->bytes */
	uint64	   *slots;			/* open addressing: a label's i + 1 and hash bits, or 0 */
	uint64		mask;			/* the slots' number minus 1 (a power of 2) */
} LabelIndex;

extern void label_list_init(LabelList *list, MemoryContext cxt);
extern void label_list_add(LabelList *list, Label label);
extern void label_list_append(LabelList *into, const LabelList *from);
extern bool label_list_equal(const LabelList *a, const LabelList *b);

/* Label i of a list, from `offset` on: the label there, and the offset of
 * the next one. */
extern Label label_list_at(const LabelList *list, int64 *offset);

/* The list as count (8 bytes), size (8) and bytes (label_list_sent_size
 * bytes in all); back into an empty list in cxt, every length checked
 * (pg_dpsel_malformed otherwise). */
extern int64 label_list_sent_size(const LabelList *list);
extern void label_list_send(StringInfo buf, const LabelList *list);
extern void label_list_receive(StringInfo msg, LabelList *list, MemoryContext cxt);

/* An index of list in the current memory context; false if the list holds
 * a label twice, *twice then that label (the index is then unusable). */
extern bool label_index_build(LabelIndex *index, const LabelList *list, Label *twice);

/* The label's position in the indexed list, or -1. */
extern int64 label_index_find(const LabelIndex *index, Label label);

extern void label_index_free(LabelIndex *index);

#endif							/* DPSEL_PG_LABELS_H */
