/* SPDX-License-Identifier: ISC */
/*
 * dpsel_pf and dpsel_em: one private selection per group.
 *
 * Each row is a candidate (label, score); the state is the library's
 * partial selection (dpsel_partial), whose member is the label's bytes, so
 * that states built by parallel workers merge (combine) into exactly the
 * state of all the rows, whatever the partition and merge order
 * (spec/partial.md §5).  Each label is one candidate: the state also lists
 * every label (labels.h), and the final function refuses a group where two
 * rows carry one label, naming it, rather than take them as two
 * candidates (rows of raw records, one per person, given where the
 * candidates' counts were due: dpsel_mode counts those).  The labels are
 * the curator's public list, one row each, so that whether a group holds a
 * label twice never depends on a record (docs/postgresql.md).  The two aggregates share the state and its
 * support functions; only the final function, which chooses the
 * mechanism, differs.
 *
 * A score is a smallint, integer, bigint or numeric; a numeric is taken in
 * whole units rounded down (floor, which keeps the sensitivity: scores at
 * most d apart, d whole, stay at most d apart), clamped into the int64
 * range, NaN as the largest (where PostgreSQL sorts it): every score is a
 * value, never an error.
 *
 * Memory: the partial state is malloc'd by the library (24 bytes per gap
 * level up to the cap, plus the members it keeps); the labels' list is
 * palloc'd in the state's context (each label's bytes and 4).  It is freed by a reset
 * callback of the memory context that holds the state, so it goes whenever
 * Postgres resets or deletes that context: after the group, the hash
 * table's batch, the query, or an error.
 */
#include "dpsel_pg.h"

#include "labels.h"

#include "catalog/pg_type_d.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

typedef struct SelectState
{
	RowParams	args;			/* first: epsilon, sensitivity, monotonic */
	dpsel_params params;		/* made from args */
	dpsel_partial *partial;		/* the library's, or NULL */
	LabelList	labels;			/* every candidate's label */
	Oid			score_type;		/* the score argument's, once a row is seen */
	bool		received;		/* made by the deserial function */
	MemoryContextCallback release;	/* frees `partial` with the state */
} SelectState;

/* The arguments: (state, label, score, epsilon [, sensitivity [, monotonic]]). */
#define ARG_LABEL 1
#define ARG_SCORE 2
#define ARG_EPSILON 3
#define ARG_SENSITIVITY 4
#define ARG_MONOTONIC 5

static void
check(FunctionCallInfo fcinfo, int rc, const char *what)
{
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, psprintf("%s: %s", pg_dpsel_aggregate(fcinfo), what));
}

static void
check_sensitivity(FunctionCallInfo fcinfo, int64 sensitivity)
{
	if (sensitivity < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s: the sensitivity must be at least 1, not " INT64_FORMAT,
						pg_dpsel_aggregate(fcinfo), sensitivity)));
}

/* The row's parameters: the sensitivity defaults to 1, monotonic to false. */
static void
select_read_row(FunctionCallInfo fcinfo, RowParams *row)
{
	row->ntexts = 1;
	pg_dpsel_param_arg(fcinfo, ARG_EPSILON, "epsilon", row, 0);
	row->sensitivity = 1;
	row->monotonic = false;
	if (PG_NARGS() > ARG_SENSITIVITY)
	{
		pg_dpsel_require(fcinfo, ARG_SENSITIVITY, "the sensitivity");
		row->sensitivity = PG_GETARG_INT64(ARG_SENSITIVITY);
		check_sensitivity(fcinfo, row->sensitivity);
	}
	if (PG_NARGS() > ARG_MONOTONIC)
	{
		pg_dpsel_require(fcinfo, ARG_MONOTONIC, "monotonic");
		row->monotonic = PG_GETARG_BOOL(ARG_MONOTONIC);
	}
}

static void
release_partial(void *arg)
{
	SelectState *state = (SelectState *) arg;

	dpsel_partial_free(state->partial);
	state->partial = NULL;
}

/* A state for params, its library parameters made; whatever is then put
 * in `partial` is freed with cxt. */
static RowParams *
select_alloc(FunctionCallInfo fcinfo, MemoryContext cxt, const RowParams *params)
{
	SelectState *state = MemoryContextAllocZero(cxt, sizeof(SelectState));

	check_sensitivity(fcinfo, params->sensitivity);
	row_params_keep(&state->args, params, cxt);
	pg_dpsel_params(fcinfo, state->args.texts[0], params->sensitivity, params->monotonic,
					&state->params);
	state->release.func = release_partial;
	state->release.arg = state;
	MemoryContextRegisterResetCallback(cxt, &state->release);
	return &state->args;
}

/* An empty partial state (its size depends on the gap cap alone). */
static void
select_start(FunctionCallInfo fcinfo, RowParams *args, MemoryContext cxt, int64 room)
{
	SelectState *state = (SelectState *) args;

	check(fcinfo, dpsel_partial_new(&state->partial, &state->params), "a new state");
	label_list_init(&state->labels, cxt);
}

/* A numeric score in whole units, rounded down and clamped (above). */
static int64
numeric_score(Datum value)
{
	Numeric		score = DatumGetNumeric(value);
	Datum		floor;

	if (numeric_is_nan(score))
		return PG_INT64_MAX;
	if (numeric_is_inf(score))
		return DatumGetInt32(DirectFunctionCall1(numeric_sign, value)) > 0 ? PG_INT64_MAX : PG_INT64_MIN;
	floor = DirectFunctionCall1(numeric_floor, value);
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, floor,
										  NumericGetDatum(int64_to_numeric(PG_INT64_MAX)))) > 0)
		return PG_INT64_MAX;
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, floor,
										  NumericGetDatum(int64_to_numeric(PG_INT64_MIN)))) < 0)
		return PG_INT64_MIN;
	return DatumGetInt64(DirectFunctionCall1(numeric_int8, floor));
}

/* The row's score, of the score argument's type. */
static int64
row_score(FunctionCallInfo fcinfo, SelectState *state)
{
	if (state->score_type == InvalidOid)
		state->score_type = get_fn_expr_argtype(fcinfo->flinfo, ARG_SCORE);
	switch (state->score_type)
	{
		case INT2OID:
			return PG_GETARG_INT16(ARG_SCORE);
		case INT4OID:
			return PG_GETARG_INT32(ARG_SCORE);
		case INT8OID:
			return PG_GETARG_INT64(ARG_SCORE);
		case NUMERICOID:
			return numeric_score(PG_GETARG_DATUM(ARG_SCORE));
		default:
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("%s: the score must be smallint, integer, bigint or numeric, not %s",
							pg_dpsel_aggregate(fcinfo), format_type_be(state->score_type))));
	}
	pg_unreachable();
}

/* The row's candidate, unless its label or score is NULL. */
static void
select_add(FunctionCallInfo fcinfo, RowParams *args)
{
	SelectState *state = (SelectState *) args;
	text	   *label;
	size_t		size;

	if (PG_ARGISNULL(ARG_LABEL) || PG_ARGISNULL(ARG_SCORE))
		return;
	label = PG_GETARG_TEXT_PP(ARG_LABEL);
	size = VARSIZE_ANY_EXHDR(label);
	if (size > DPSEL_PARTIAL_MEMBER_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: a label of %zu bytes is longer than %d bytes",
						pg_dpsel_aggregate(fcinfo), size, DPSEL_PARTIAL_MEMBER_MAX)));
	check(fcinfo, dpsel_partial_add(state->partial, row_score(fcinfo, state),
									VARDATA_ANY(label), size, pg_dpsel_rng()),
		  "adding a candidate");
	label_list_add(&state->labels, (Label) {VARDATA_ANY(label), (int32) size});
}

/* A copy of a state, through its serialised bytes (freed by the caller). */
static int
copy_state(const SelectState *from, dpsel_partial **copy)
{
	size_t		size = 0;
	unsigned char *bytes;
	int			rc = dpsel_partial_serialize(from->partial, NULL, 0, &size);

	if (rc != DPSEL_OK)
		return rc;
	bytes = malloc(size);
	if (bytes == NULL)
		return DPSEL_ENOMEM;
	rc = dpsel_partial_serialize(from->partial, bytes, size, &size);
	if (rc == DPSEL_OK)
		rc = dpsel_partial_deserialize(copy, &from->params, bytes, size);
	free(bytes);
	return rc;
}

/* Postgres may not let a combine function change its second state, and
 * the library's merge spends the state it takes: a copy is merged, unless
 * the state is one the deserial function just made, for this combine
 * alone (the Finalize aggregate's case: each worker's state is read, then
 * merged once).  Were it used again, the library would refuse it as
 * spent.  Only the merged state is ever finished (spec/partial.md §5). */
static void
select_merge(FunctionCallInfo fcinfo, RowParams *into, const RowParams *from_args)
{
	SelectState *from = (SelectState *) unconstify(RowParams *, from_args);
	dpsel_partial *copy = NULL;
	int			rc;

	if (from->received)
		rc = dpsel_partial_merge(((SelectState *) into)->partial, from->partial, pg_dpsel_rng());
	else
	{
		rc = copy_state(from, &copy);
		if (rc == DPSEL_OK)
			rc = dpsel_partial_merge(((SelectState *) into)->partial, copy, pg_dpsel_rng());
		dpsel_partial_free(copy);
	}
	check(fcinfo, rc, "merging partial states");
	label_list_append(&((SelectState *) into)->labels, &from->labels);
}

/* The labels (label_list_send), then dpsel_partial_serialize's bytes. */
static void
select_send(FunctionCallInfo fcinfo, StringInfo buf, const RowParams *args)
{
	const SelectState *state = (const SelectState *) args;
	size_t		size = 0;

	label_list_send(buf, &state->labels);
	check(fcinfo, dpsel_partial_serialize(state->partial, NULL, 0, &size), "serialising a state");
	if (size > MaxAllocSize - VARHDRSZ - (size_t) buf->len - 1)
		check(fcinfo, DPSEL_ETOOLARGE, "serialising a state");
	enlargeStringInfo(buf, (int) size);
	check(fcinfo, dpsel_partial_serialize(state->partial, (unsigned char *) buf->data + buf->len,
										  size, &size), "serialising a state");
	buf->len += (int) size;
}

/* The labels, then the rest of the message, every field checked by the
 * library; as many labels as candidates. */
static void
select_receive(FunctionCallInfo fcinfo, StringInfo msg, RowParams *args)
{
	SelectState *state = (SelectState *) args;

	state->received = true;
	label_list_receive(msg, &state->labels, CurrentMemoryContext);
	check(fcinfo, dpsel_partial_deserialize(&state->partial, &state->params,
											(const unsigned char *) msg->data + msg->cursor,
											msg->len - msg->cursor),
		  "deserialising a state");
	if ((uint64) state->labels.count != dpsel_partial_count(state->partial))
		pg_dpsel_malformed("not one label per candidate");
}

/* ERROR if two of the state's candidates have one label, naming it (at
 * most 200 bytes of it, cut between characters). */
static void
refuse_twice(FunctionCallInfo fcinfo, const SelectState *state)
{
	LabelIndex	index;
	Label		twice;

	if (label_index_build(&index, &state->labels, &twice))
	{
		label_index_free(&index);
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s: two rows of a group have the label \"%s\"%s",
					pg_dpsel_aggregate(fcinfo),
					pnstrdup(twice.data, pg_mbcliplen(twice.data, twice.length, 200)),
					twice.length > 200 ? " (cut)" : ""),
			 errdetail("Each row is one candidate: a label of a public list and its score."),
			 errhint("Count a column's values per candidate with dpsel_mode(value, candidates, epsilon), "
					 "or aggregate the scores per label first (GROUP BY).")));
}

static const char *const select_names[] = {"epsilon"};

static const StateKind select_kind = {
	1, select_names, select_read_row, select_alloc, select_start, select_add, select_merge,
	select_send, select_receive
};

DPSEL_PG_STATE_FUNCTIONS(select, select_kind)

/* The selection: the chosen label, or NULL when no row had a label and a
 * score.  The finish spends the state (the library refuses a second
 * release from it), and the SQL declares the final functions READ_WRITE,
 * so that Postgres neither shares a state between two aggregates nor
 * finishes one twice (spec/partial.md §5). */
static Datum
select_final(FunctionCallInfo fcinfo, dpsel_mechanism mechanism)
{
	SelectState *state = (SelectState *) PG_GETARG_POINTER(0);
	const dpsel_selector *selector;
	const void *member = NULL;
	size_t		size = 0;

	if (dpsel_partial_count(state->partial) == 0)
		PG_RETURN_NULL();
	refuse_twice(fcinfo, state);
	selector = pg_dpsel_selector(fcinfo, state->args.texts[0], state->args.sensitivity,
								 state->args.monotonic);
	check(fcinfo, dpsel_partial_finish(state->partial, selector, mechanism, pg_dpsel_rng(),
									   &member, &size), "the selection");
	PG_RETURN_TEXT_P(cstring_to_text_with_len(size > 0 ? member : "", (int) size));
}

PG_FUNCTION_INFO_V1(dpsel_pg_pf_final);
Datum
dpsel_pg_pf_final(PG_FUNCTION_ARGS)
{
	return select_final(fcinfo, DPSEL_PF);
}

PG_FUNCTION_INFO_V1(dpsel_pg_em_final);
Datum
dpsel_pg_em_final(PG_FUNCTION_ARGS)
{
	return select_final(fcinfo, DPSEL_EM);
}
