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
 * value, never an error.  The unit is 1, or with a decimal (numeric or
 * float8) sensitivity or a resolution, decimal scores' unit: the
 * resolution, else 10^-d for a sensitivity of d fraction digits (the
 * command line's --resolution, spec/quantiles.md §5); a score is then
 * floor(score / unit), exactly, whatever its type.  The unit and the
 * sensitivity are public parameters: a sensitivity that is not a whole
 * multiple of the unit is refused, naming both.
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
	int64		sensitivity;	/* in units of the scores */
	Datum		unit;			/* decimal scores' unit (numeric), or 0: 1 */
	Datum		lowest;			/* unit x INT64_MIN, and */
	Datum		highest;		/* unit x INT64_MAX: the clamp's ends */
	LabelList	labels;			/* every candidate's label */
	Oid			score_type;		/* the score argument's, once a row is seen */
	bool		received;		/* made by the deserial function */
	MemoryContextCallback release;	/* frees `partial` with the state */
} SelectState;

/* The arguments: (state, label, score, epsilon [, sensitivity [, monotonic
 * [, resolution]]]); the parameters' texts: epsilon, a decimal sensitivity
 * and the resolution (NULL when not given). */
#define ARG_LABEL 1
#define ARG_SCORE 2
#define ARG_EPSILON 3
#define ARG_SENSITIVITY 4
#define ARG_MONOTONIC 5
#define ARG_RESOLUTION 6
#define TEXT_EPSILON 0
#define TEXT_SENSITIVITY 1
#define TEXT_RESOLUTION 2

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

/* Argument arg of type `type` as *value, if an integer type. */
static bool
integer_arg(FunctionCallInfo fcinfo, int arg, Oid type, int64 *value)
{
	switch (type)
	{
		case INT2OID:
			*value = PG_GETARG_INT16(arg);
			return true;
		case INT4OID:
			*value = PG_GETARG_INT32(arg);
			return true;
		case INT8OID:
			*value = PG_GETARG_INT64(arg);
			return true;
		default:
			return false;
	}
}

/* An integer sensitivity into row->sensitivity; a decimal one (numeric or
 * float8) as its text parameter, converted with the unit (select_unit). */
static void
read_sensitivity(FunctionCallInfo fcinfo, RowParams *row)
{
	pg_dpsel_require(fcinfo, ARG_SENSITIVITY, "the sensitivity");
	if (integer_arg(fcinfo, ARG_SENSITIVITY, pg_dpsel_arg_type(fcinfo, ARG_SENSITIVITY),
					&row->sensitivity))
		check_sensitivity(fcinfo, row->sensitivity);
	else
	{
		pg_dpsel_param_arg(fcinfo, ARG_SENSITIVITY, "the sensitivity", row, TEXT_SENSITIVITY);
		row->sensitivity = 0;
	}
}

/* The row's parameters: the sensitivity defaults to 1, monotonic to false. */
static void
select_read_row(FunctionCallInfo fcinfo, RowParams *row)
{
	row->ntexts = 3;
	pg_dpsel_param_arg(fcinfo, ARG_EPSILON, "epsilon", row, TEXT_EPSILON);
	pg_dpsel_param_null(row, TEXT_SENSITIVITY);
	pg_dpsel_param_null(row, TEXT_RESOLUTION);
	row->sensitivity = 1;
	row->monotonic = false;
	if (PG_NARGS() > ARG_SENSITIVITY)
		read_sensitivity(fcinfo, row);
	if (PG_NARGS() > ARG_MONOTONIC)
	{
		pg_dpsel_require(fcinfo, ARG_MONOTONIC, "monotonic");
		row->monotonic = PG_GETARG_BOOL(ARG_MONOTONIC);
	}
	if (PG_NARGS() > ARG_RESOLUTION)
		pg_dpsel_param_arg(fcinfo, ARG_RESOLUTION, "the resolution", row, TEXT_RESOLUTION);
}

/* ERROR for a refused decimal parameter: "<aggregate>: <message>" and a hint. */
static void refuse_decimal(FunctionCallInfo fcinfo, const char *message, const char *hint)
			pg_attribute_noreturn();

static void
refuse_decimal(FunctionCallInfo fcinfo, const char *message, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s: %s", pg_dpsel_aggregate(fcinfo), message),
			 errhint("%s", hint)));
	pg_unreachable();
}

/* The unit 10^-d of a decimal with d > 0 fraction digits ("0.50": "0.01"),
 * or NULL for none. */
static char *
fraction_unit(const char *decimal)
{
	const char *point = strchr(decimal, '.');
	size_t		digits = point == NULL ? 0 : strlen(point + 1);
	char	   *unit;

	if (digits == 0)
		return NULL;
	unit = palloc(digits + 3);	/* "0.", digits - 1 zeros, "1", NUL */
	memset(unit, '0', digits + 1);
	unit[1] = '.';
	unit[digits + 1] = '1';
	unit[digits + 2] = '\0';
	return unit;
}

/* A numeric of a decimal text. */
static Datum
numeric_of(const char *text)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(text), ObjectIdGetDatum(InvalidOid),
							   Int32GetDatum(-1));
}

/* The scores' unit and the sensitivity in it (above), into state, in cxt. */
static void
select_unit(FunctionCallInfo fcinfo, SelectState *state, MemoryContext cxt)
{
	const char *sensitivity = state->args.texts[TEXT_SENSITIVITY];
	const char *unit = state->args.texts[TEXT_RESOLUTION];
	MemoryContext old;
	int64		one;
	int			rc;

	state->sensitivity = state->args.sensitivity;
	if (sensitivity == NULL)
		return;					/* an integer (the resolution comes with a numeric) */
	if (unit != NULL && dpsel_decimal_to_units(unit, unit, &one) != DPSEL_OK)
		refuse_decimal(fcinfo, psprintf("the resolution must be a positive decimal number, not %s",
										unit), "Give the unit of the scores, such as 0.01.");
	old = MemoryContextSwitchTo(cxt);
	unit = unit != NULL ? unit : fraction_unit(sensitivity);
	rc = dpsel_decimal_to_units(sensitivity, unit != NULL ? unit : "1", &state->sensitivity);
	if (rc == DPSEL_EUNIT)
		refuse_decimal(fcinfo, psprintf("the sensitivity %s is not a whole multiple of the "
										"resolution %s", sensitivity, unit),
					   "Give a finer resolution, or a sensitivity of its digits.");
	if (rc != DPSEL_OK || state->sensitivity < 1)
		refuse_decimal(fcinfo, psprintf("the sensitivity must be a positive decimal number, "
										"not %s", sensitivity),
					   "Give it as a numeric with its digits, such as 0.5 or 2.50.");
	if (unit != NULL)
	{
		state->unit = numeric_of(unit);
		state->lowest = DirectFunctionCall2(numeric_mul, state->unit,
											NumericGetDatum(int64_to_numeric(PG_INT64_MIN)));
		state->highest = DirectFunctionCall2(numeric_mul, state->unit,
											 NumericGetDatum(int64_to_numeric(PG_INT64_MAX)));
	}
	MemoryContextSwitchTo(old);
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

	row_params_keep(&state->args, params, cxt);
	select_unit(fcinfo, state, cxt);
	check_sensitivity(fcinfo, state->sensitivity);
	pg_dpsel_params(fcinfo, state->args.texts[TEXT_EPSILON], state->sensitivity,
					params->monotonic, &state->params);
	state->release.func = release_partial;
	state->release.arg = state;
	MemoryContextRegisterResetCallback(cxt, &state->release);
	return &state->args;
}

/* An empty partial state (its size depends on the gap cap alone). */
static void
select_start(FunctionCallInfo fcinfo, RowParams *args, MemoryContext cxt)
{
	SelectState *state = (SelectState *) args;

	check(fcinfo, dpsel_partial_new(&state->partial, &state->params), "a new state");
	label_list_init(&state->labels, cxt);
}

/* value < 0 (numeric_sign's result is a numeric, not an int). */
static bool
numeric_below_zero(Datum value)
{
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, value,
											 NumericGetDatum(int64_to_numeric(0)))) < 0;
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
		return numeric_below_zero(value) ? PG_INT64_MIN : PG_INT64_MAX;
	floor = DirectFunctionCall1(numeric_floor, value);
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, floor,
										  NumericGetDatum(int64_to_numeric(PG_INT64_MAX)))) > 0)
		return PG_INT64_MAX;
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, floor,
										  NumericGetDatum(int64_to_numeric(PG_INT64_MIN)))) < 0)
		return PG_INT64_MIN;
	return DatumGetInt64(DirectFunctionCall1(numeric_int8, floor));
}

/* A numeric score in whole units of a decimal unit: floor(score / unit),
 * clamped into the int64 range, NaN as the largest, exactly (numeric
 * arithmetic on the digits); the clamp comes first, so that no quotient
 * is ever beyond int64. */
static int64
unit_score(const SelectState *state, Datum value)
{
	Datum		quotient;

	if (numeric_is_nan(DatumGetNumeric(value)) ||
		DatumGetInt32(DirectFunctionCall2(numeric_cmp, value, state->highest)) >= 0)
		return PG_INT64_MAX;
	if (DatumGetInt32(DirectFunctionCall2(numeric_cmp, value, state->lowest)) < 0)
		return PG_INT64_MIN;
	quotient = DirectFunctionCall2(numeric_div_trunc, value, state->unit);
	/* truncated towards 0: one less for a negative score between units,
	 * whose remainder is negative */
	return DatumGetInt64(DirectFunctionCall1(numeric_int8, quotient)) -
		(numeric_below_zero(DirectFunctionCall2(numeric_mod, value, state->unit)) ? 1 : 0);
}

/* The row's score, of the score argument's type, in units (above). */
static int64
row_score(FunctionCallInfo fcinfo, SelectState *state)
{
	int64		score;

	if (state->score_type == InvalidOid)
		state->score_type = get_fn_expr_argtype(fcinfo->flinfo, ARG_SCORE);
	if (state->score_type == NUMERICOID)
		return state->unit != (Datum) 0 ? unit_score(state, PG_GETARG_DATUM(ARG_SCORE))
			: numeric_score(PG_GETARG_DATUM(ARG_SCORE));
	if (!integer_arg(fcinfo, ARG_SCORE, state->score_type, &score))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: the score must be smallint, integer, bigint or numeric, not %s",
						pg_dpsel_aggregate(fcinfo), format_type_be(state->score_type))));
	return state->unit != (Datum) 0 ? unit_score(state, NumericGetDatum(int64_to_numeric(score)))
		: score;
}

/*
 * The most bytes the state's data can take serialised (select_send),
 * whatever its scores: its labels' list (label_list_send), and the
 * library's state at its largest (spec/partial.md §4), one level per
 * candidate up to the gap cap and the cap level, each 20 bytes and its
 * member (a label of its own level, so the members take at most the
 * labels' bytes), with 88 bytes of header and checksum.  A worker's share
 * of a group has fewer labels and fewer levels: it never takes more than
 * the group.
 */
#define PARTIAL_FIXED_BYTES 88
#define PARTIAL_LEVEL_BYTES 20

static int64
state_bytes_most(const SelectState *state)
{
	int64		count = state->labels.count;
	int64		levels = Min(count, (int64) state->params.gap_cap + 1);
	int64		label_bytes = state->labels.used - count * (int64) sizeof(int32);

	return label_list_sent_size(&state->labels) + PARTIAL_FIXED_BYTES
		+ levels * PARTIAL_LEVEL_BYTES + Min(label_bytes, levels * DPSEL_PARTIAL_MEMBER_MAX);
}

/*
 * ERROR once a group's candidates could make a state that a parallel
 * worker cannot pass on (pg_dpsel_check_room), in every plan: a plain
 * plan's state takes the group's rows one by one, a parallel plan's
 * workers each a share of them and the leader's the shares merged, so
 * each plan passes the room exactly when the whole group does.  The
 * labels are the curator's public list, one row each, so the limit
 * refuses a public structure, never a record (as two rows of one label).
 */
static void
check_room(FunctionCallInfo fcinfo, const SelectState *state)
{
	pg_dpsel_check_room(fcinfo, &state->args, state_bytes_most(state), "a group's candidates",
						"Each candidate takes its label's bytes and 4, and up to its label's "
						"bytes and 20 more while the state has fewer levels than its gap cap.");
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
	check_room(fcinfo, state);
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
	check_room(fcinfo, (SelectState *) into);
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

/* ERROR if two of the state's candidates have one label.  The label is not
 * named: labels that repeat are likely records (one row per person where
 * counts were due), and no message shows a record. */
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
			 errmsg("%s: two rows of a group have one label", pg_dpsel_aggregate(fcinfo)),
			 errdetail("Each row is one candidate: a label of a public list and its score. "
					   "The label is not shown: labels that repeat may be records."),
			 errhint("Count a column's values per candidate with dpsel_mode(value, candidates, epsilon), "
					 "or aggregate the scores per label first (GROUP BY).")));
}

static const char *const select_names[] = {"epsilon", "the sensitivity", "the resolution"};

static const StateKind select_kind = {
	3, select_names, select_read_row, select_alloc, select_start, select_add, select_merge,
	select_send, select_receive, ARG_EPSILON
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
	selector = pg_dpsel_selector(fcinfo, state->args.texts[TEXT_EPSILON], state->sensitivity,
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
