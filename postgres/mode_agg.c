/* SPDX-License-Identifier: ISC */
/*
 * dpsel_mode: the most common value of a text column among public
 * candidates, from raw rows (one per record).
 *
 * The state counts the group's rows per candidate; the final function
 * selects a candidate by its count (the mode task: sensitivity 1,
 * monotonic, dpsel_task_params) with PF (the default) or EM.  A candidate
 * no row names counts 0.  A row whose value is no candidate is dropped:
 * dropping is a map of each row alone (to a candidate or to nothing), so
 * one record added or removed still changes one count by at most 1, and
 * the release stays epsilon-DP; an error there would let one record decide
 * whether the release happens.  A NULL value is skipped likewise.  The
 * candidates are a parameter: every row of a group must give the same
 * ones, without NULL or a label twice (public errors, refused).
 *
 * States combine by adding counts.  Memory: the candidates' list and index
 * (labels.h) and 8 bytes of count per candidate, in the aggregate's
 * context; building them costs one pass over the candidates per group.
 */
#include "dpsel_pg.h"

#include "labels.h"

#include "catalog/pg_type_d.h"
#include "mb/pg_wchar.h"
#include "common/int.h"
#include "libpq/pqformat.h"
#include "utils/array.h"
#include "utils/builtins.h"

/* The arguments: (state, value, candidates, epsilon [, mechanism]). */
#define ARG_VALUE 1
#define ARG_CANDIDATES 2
#define ARG_EPSILON 3
#define ARG_MECHANISM 4
enum
{
	M_EPSILON, M_MECHANISM, M_TEXTS
};
static const char *const mode_names[M_TEXTS] = {"epsilon", "the mechanism"};

typedef struct ModeState
{
	RowParams	args;			/* epsilon, mechanism; sensitivity 1, monotonic */
	dpsel_mechanism mechanism;
	bool		known;			/* the candidates below are set */
	LabelList	candidates;
	LabelIndex	index;			/* of candidates, in a state that takes rows */
	char	   *array;			/* the first row's array, its bytes */
	int			array_length;
	int64	   *counts;			/* rows per candidate */
} ModeState;

static void
mode_read_row(FunctionCallInfo fcinfo, RowParams *row)
{
	uint64		sensitivity;
	int			monotonic;
	int			rc = dpsel_task_params(DPSEL_TASK_MODE, &sensitivity, &monotonic);

	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, "dpsel_mode: the task's parameters");
	memset(row, 0, sizeof(RowParams));
	row->ntexts = M_TEXTS;
	pg_dpsel_param_arg(fcinfo, ARG_EPSILON, mode_names[M_EPSILON], row, M_EPSILON);
	if (PG_NARGS() > ARG_MECHANISM)
		pg_dpsel_param_arg(fcinfo, ARG_MECHANISM, mode_names[M_MECHANISM], row, M_MECHANISM);
	else
		pg_dpsel_param_default(row, M_MECHANISM, "pf");
	row->sensitivity = (int64) sensitivity;
	row->monotonic = monotonic != 0;
}

/* A state for params, checked: epsilon and the mechanism. */
static RowParams *
mode_alloc(FunctionCallInfo fcinfo, MemoryContext cxt, const RowParams *params)
{
	ModeState  *state = MemoryContextAllocZero(cxt, sizeof(ModeState));
	dpsel_params checked;

	row_params_keep(&state->args, params, cxt);
	state->mechanism = pg_dpsel_mechanism(fcinfo, state->args.texts[M_MECHANISM]);
	pg_dpsel_params(fcinfo, state->args.texts[M_EPSILON], params->sensitivity, params->monotonic,
					&checked);
	label_list_init(&state->candidates, cxt);
	return &state->args;
}

/* The candidates come with the first row (or merged state). */
static void
mode_start(FunctionCallInfo fcinfo, RowParams *args, MemoryContext cxt)
{
}

static void
refuse_candidates(FunctionCallInfo fcinfo, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s: the candidates %s", pg_dpsel_aggregate(fcinfo), why),
			 errhint("Give the same public list on every row, such as ARRAY['a', 'b', 'c'].")));
}

/* The array's elements into list (in the current memory context's
 * list->cxt): text, one dimension or none, no NULL. */
static void
candidates_of(FunctionCallInfo fcinfo, ArrayType *array, LabelList *list)
{
	Datum	   *elements;
	bool	   *nulls;
	int			count;

	if (ARR_ELEMTYPE(array) != TEXTOID)
		refuse_candidates(fcinfo, psprintf("must be a text[], not %s[]",
										   format_type_be(ARR_ELEMTYPE(array))));
	deconstruct_array(array, TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &count);
	for (int i = 0; i < count; i++)
	{
		text	   *element;

		if (nulls[i])
			refuse_candidates(fcinfo, psprintf("must not hold NULL (element %d)", i + 1));
		element = DatumGetTextPP(elements[i]);
		label_list_add(list, (Label) {VARDATA_ANY(element), VARSIZE_ANY_EXHDR(element)});
	}
}

/*
 * The bytes of a state's data for its candidates (mode_send): whether they
 * are known, their list, a count each.  The same in every state of a
 * group, whatever its rows, and checked in every plan at its first row
 * (pg_dpsel_check_room): the candidates are a public parameter.
 */
static int64
state_bytes(const ModeState *state)
{
	return 1 + label_list_sent_size(&state->candidates)
		+ state->candidates.count * (int64) sizeof(int64);
}

/* The first row's candidates: listed, indexed, counted from 0. */
static void
set_candidates(FunctionCallInfo fcinfo, ModeState *state, struct varlena *array)
{
	MemoryContext cxt = state->candidates.cxt;
	MemoryContext old = MemoryContextSwitchTo(cxt);
	Label		twice;

	candidates_of(fcinfo, DatumGetArrayTypeP(PointerGetDatum(array)), &state->candidates);
	if (state->candidates.count == 0)
		refuse_candidates(fcinfo, "must not be empty");
	pg_dpsel_check_room(fcinfo, &state->args, state_bytes(state), "the candidates",
						"Each candidate takes its bytes and 12 (its length and its count).");
	if (!label_index_build(&state->index, &state->candidates, &twice))
		refuse_candidates(fcinfo, psprintf("hold \"%s\" twice",
										   pnstrdup(twice.data, pg_mbcliplen(twice.data, twice.length, 200))));
	state->array_length = VARSIZE_ANY_EXHDR(array);
	state->array = palloc(state->array_length);
	memcpy(state->array, VARDATA_ANY(array), state->array_length);
	state->counts = palloc0_array(int64, state->candidates.count);
	state->known = true;
	MemoryContextSwitchTo(old);
}

/* ERROR unless the row gives the state's candidates: the same bytes (the
 * usual case: one constant), or else the same elements in order. */
static void
check_candidates(FunctionCallInfo fcinfo, const ModeState *state, struct varlena *array)
{
	LabelList	row;

	if (VARSIZE_ANY_EXHDR(array) == state->array_length
		&& memcmp(VARDATA_ANY(array), state->array, state->array_length) == 0)
		return;
	label_list_init(&row, CurrentMemoryContext);
	candidates_of(fcinfo, DatumGetArrayTypeP(PointerGetDatum(array)), &row);
	if (!label_list_equal(&row, &state->candidates))
		refuse_candidates(fcinfo, "must be the same on every row of a group");
}

/* The row counted for its candidate; NULL or no candidate: dropped. */
static void
mode_add(FunctionCallInfo fcinfo, RowParams *args)
{
	ModeState  *state = (ModeState *) args;
	struct varlena *array;
	text	   *value;
	int64		i;

	pg_dpsel_require(fcinfo, ARG_CANDIDATES, "the candidates");
	array = PG_GETARG_VARLENA_PP(ARG_CANDIDATES);
	if (!state->known)
		set_candidates(fcinfo, state, array);
	else
		check_candidates(fcinfo, state, array);
	if (PG_ARGISNULL(ARG_VALUE))
		return;
	value = PG_GETARG_TEXT_PP(ARG_VALUE);
	i = label_index_find(&state->index, (Label) {VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)});
	if (i >= 0)
		state->counts[i]++;
}

/* from's counts added to into's (the same candidates). */
static void
mode_merge(FunctionCallInfo fcinfo, RowParams *into_args, const RowParams *from_args)
{
	ModeState  *into = (ModeState *) into_args;
	const ModeState *from = (const ModeState *) from_args;

	if (!from->known)
		return;
	if (!into->known)
	{
		label_list_append(&into->candidates, &from->candidates);
		into->counts = MemoryContextAllocZero(into->candidates.cxt,
											  from->candidates.count * sizeof(int64));
		into->known = true;
	}
	else if (!label_list_equal(&into->candidates, &from->candidates))
		refuse_candidates(fcinfo, "must be the same on every row of a group");
	for (int64 i = 0; i < from->candidates.count; i++)
		if (pg_add_s64_overflow(into->counts[i], from->counts[i], &into->counts[i]))
			pg_dpsel_malformed("a count past 2^63");
}

/* Whether the candidates are known (1 byte), then they and their counts. */
static void
mode_send(FunctionCallInfo fcinfo, StringInfo buf, const RowParams *args)
{
	const ModeState *state = (const ModeState *) args;

	pq_sendbyte(buf, state->known ? 1 : 0);
	if (!state->known)
		return;
	label_list_send(buf, &state->candidates);
	for (int64 i = 0; i < state->candidates.count; i++)
		pq_sendint64(buf, (uint64) state->counts[i]);
}

static void
mode_receive(FunctionCallInfo fcinfo, StringInfo msg, RowParams *args)
{
	ModeState  *state = (ModeState *) args;
	int			known = pq_getmsgbyte(msg);

	if (known != 0 && known != 1)
		pg_dpsel_malformed("candidates neither known nor unknown");
	state->known = known == 1;
	if (!state->known)
		return;
	label_list_receive(msg, &state->candidates, CurrentMemoryContext);
	if (state->candidates.count == 0
		|| state->candidates.count != (msg->len - msg->cursor) / (int64) sizeof(int64)
		|| (msg->len - msg->cursor) % (int64) sizeof(int64) != 0)
		pg_dpsel_malformed("wrong number of counts");
	state->counts = palloc_array(int64, state->candidates.count);
	for (int64 i = 0; i < state->candidates.count; i++)
	{
		state->counts[i] = (int64) pq_getmsgint64(msg);
		if (state->counts[i] < 0)
			pg_dpsel_malformed("a negative count");
	}
}

static const StateKind mode_kind = {
	M_TEXTS, mode_names, mode_read_row, mode_alloc, mode_start, mode_add, mode_merge,
	mode_send, mode_receive, ARG_EPSILON
};

DPSEL_PG_STATE_FUNCTIONS(mode, mode_kind)

/* The selection among the candidates by their counts; NULL for a group
 * of no rows (only the empty aggregate has one). */
PG_FUNCTION_INFO_V1(dpsel_pg_mode_final);
Datum
dpsel_pg_mode_final(PG_FUNCTION_ARGS)
{
	ModeState  *state = (ModeState *) PG_GETARG_POINTER(0);
	const dpsel_selector *selector;
	size_t		chosen = 0;
	int64		offset = 0;
	Label		label;
	int			rc;

	if (!state->known)
		PG_RETURN_NULL();
	selector = pg_dpsel_selector(fcinfo, state->args.texts[M_EPSILON], state->args.sensitivity,
								 state->args.monotonic);
	rc = dpsel_select(selector, state->mechanism, state->counts, state->candidates.count,
					  pg_dpsel_rng(), &chosen);
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, "dpsel_mode: the selection");
	label = label_list_at(&state->candidates, &offset);
	for (size_t i = 0; i < chosen; i++)
		label = label_list_at(&state->candidates, &offset);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(label.data, label.length));
}
