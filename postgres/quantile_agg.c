/* SPDX-License-Identifier: ISC */
/*
 * dpsel_quantile and dpsel_percentile: a private quantile of a numeric
 * column (spec/quantiles.md), its parameters given as texts (dpsel_quantile)
 * or as numerics in the values' unit (dpsel_percentile), epsilon as text,
 * numeric or float8 (pg_dpsel_param_arg).
 *
 * Each value is mapped to its point of the public grid lower, lower +
 * resolution, ..., upper (dpsel_grid_point: clamped, rounded down, a map of
 * each row alone), and the state collects the points.  The final function
 * builds the runs of the quantile's score over the points and releases one
 * grid point with EM (the default, as in the tool) or PF.  A NULL value is skipped (an
 * absent record): a group whose values are all NULL still releases a grid
 * point, as the mechanism does on no data.  Every other numeric is a value,
 * never an error, whatever its digits (one record must not decide whether
 * the release happens, spec/quantiles.md §6): NaN goes to the upper end
 * (where PostgreSQL sorts it), Infinity and -Infinity to theirs.
 *
 * The state is not partial: the aggregates have no combine, serial or
 * deserial function (dpsel--0.1.0.sql), and Postgres runs each in one
 * process, the leader above a Gather whose workers scan.  A partial state
 * would be the points of a worker's rows, passed on as one bytea, which
 * holds at most 1 GB (134 million points): a query would then fail or
 * release depending on how many rows a worker read, that is on the data
 * and the plan.  No exact summary is smaller for every count: the score of
 * each grid point needs the number of values below and at it, so the
 * summary is the points' histogram, as large as the values' distinct
 * points, and the grid (a public parameter) may have up to 2^62.  In one
 * process the points take huge allocations, limited by the memory alone:
 * any count of rows releases, with the same law in every plan.  Memory:
 * 8 bytes per value in the aggregate's context (up to 16 while the array
 * doubles), and the final function's runs about 56 more per value while it
 * runs (dpsel_quantile_runs_new).
 */
#include "dpsel_pg.h"

#include "utils/builtins.h"
#include "utils/memutils.h"

/* The arguments: (state, value, quantile, lower, upper, epsilon
 * [, resolution [, mechanism]]), the parameters kept as texts in this
 * order. */
#define ARG_VALUE 1
#define ARG_FIRST_TEXT 2
enum
{
	Q_QUANTILE, Q_LOWER, Q_UPPER, Q_EPSILON, Q_RESOLUTION, Q_MECHANISM, Q_TEXTS
};
static const char *const quantile_names[Q_TEXTS] = {
	"the quantile", "lower", "upper", "epsilon", "the resolution", "the mechanism"
};

typedef struct QuantileState
{
	RowParams	args;			/* the texts above; resolution NULL: the default */
	uint64		a;				/* the quantile a / b */
	uint64		b;
	uint64		sensitivity;	/* of its score: max(a, b - a) */
	dpsel_grid	grid;
	dpsel_mechanism mechanism;
	int64	   *points;			/* the values on the grid (palloc'd huge) */
	int64		count;
	int64		room;
} QuantileState;

/* The grid's points, or 0 past 2^64 - 1 (the whole int64 range). */
static uint64
grid_points(const dpsel_grid *grid)
{
	return (uint64) grid->upper - (uint64) grid->lower + 1;
}

/* Reads every parameter, so that a bad one is an error at the first row. */
static void
quantile_setup(FunctionCallInfo fcinfo, QuantileState *state)
{
	const char *const *t = state->args.texts;
	dpsel_params params;
	uint64		points;
	uint64		limit;
	int			rc;

	rc = dpsel_quantile_fraction(t[Q_QUANTILE], &state->a, &state->b, &state->sensitivity);
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, psprintf("%s: the quantile \"%s\"", pg_dpsel_aggregate(fcinfo),
									t[Q_QUANTILE]));
	rc = dpsel_grid_init(&state->grid, t[Q_LOWER], t[Q_UPPER], t[Q_RESOLUTION]);
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, psprintf("%s: the grid from \"%s\" to \"%s\" in steps of %s",
									pg_dpsel_aggregate(fcinfo), t[Q_LOWER], t[Q_UPPER],
									t[Q_RESOLUTION] != NULL
									? psprintf("\"%s\"", t[Q_RESOLUTION]) : "the default"));
	state->mechanism = pg_dpsel_mechanism(fcinfo, t[Q_MECHANISM]);
	points = grid_points(&state->grid);
	limit = state->mechanism == DPSEL_EM ? DPSEL_QUANTILE_EM_GRID_MAX : (uint64) 1 << 62;
	if (points == 0 || points > limit)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: the grid from %s to %s has more points than %s takes (" UINT64_FORMAT ")",
						pg_dpsel_aggregate(fcinfo), t[Q_LOWER], t[Q_UPPER],
						state->mechanism == DPSEL_EM ? "EM" : "PF", limit),
				 errhint("Choose a coarser resolution%s.",
						 state->mechanism == DPSEL_EM ? " or the mechanism 'pf'" : "")));
	pg_dpsel_params(fcinfo, t[Q_EPSILON], (int64) state->sensitivity, false, &params);
}

/* A state for params, every parameter checked (quantile_setup). */
static RowParams *
quantile_alloc(FunctionCallInfo fcinfo, MemoryContext cxt, const RowParams *params)
{
	QuantileState *state = MemoryContextAllocZero(cxt, sizeof(QuantileState));

	row_params_keep(&state->args, params, cxt);
	quantile_setup(fcinfo, state);
	return &state->args;
}

/* No points yet, room for 16 in cxt. */
static void
quantile_start(FunctionCallInfo fcinfo, RowParams *args, MemoryContext cxt)
{
	QuantileState *state = (QuantileState *) args;

	state->room = 16;
	state->points = MemoryContextAllocHuge(cxt, state->room * sizeof(int64));
	state->count = 0;
}

/* Room for `more` points (doubling). */
static void
reserve(QuantileState *state, int64 more)
{
	int64		room = state->room;

	if ((uint64) more > MaxAllocHugeSize / sizeof(int64) / 2 - (uint64) state->count)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("dpsel_quantile: too many values")));
	while (room < state->count + more)
		room *= 2;
	if (room != state->room)
	{
		state->points = repalloc_huge(state->points, room * sizeof(int64));
		state->room = room;
	}
}

/* The row's parameters (resolution: NULL or absent for the default). */
static void
quantile_read_row(FunctionCallInfo fcinfo, RowParams *row)
{
	memset(row, 0, sizeof(RowParams));
	row->ntexts = Q_TEXTS;
	for (int i = Q_QUANTILE; i <= Q_EPSILON; i++)
		pg_dpsel_param_arg(fcinfo, ARG_FIRST_TEXT + i, quantile_names[i], row, i);
	if (PG_NARGS() > ARG_FIRST_TEXT + Q_RESOLUTION && !PG_ARGISNULL(ARG_FIRST_TEXT + Q_RESOLUTION))
		pg_dpsel_param_arg(fcinfo, ARG_FIRST_TEXT + Q_RESOLUTION, quantile_names[Q_RESOLUTION],
						   row, Q_RESOLUTION);
	else
		pg_dpsel_param_null(row, Q_RESOLUTION);
	if (PG_NARGS() > ARG_FIRST_TEXT + Q_MECHANISM)
		pg_dpsel_param_arg(fcinfo, ARG_FIRST_TEXT + Q_MECHANISM, quantile_names[Q_MECHANISM],
						   row, Q_MECHANISM);
	else
		pg_dpsel_param_default(row, Q_MECHANISM, "em");
}

/* The row's value as its grid point, unless it is NULL. */
static void
quantile_add(FunctionCallInfo fcinfo, RowParams *args)
{
	QuantileState *state = (QuantileState *) args;
	char	   *value;
	int			rc;

	if (PG_ARGISNULL(ARG_VALUE))
		return;
	value = DatumGetCString(DirectFunctionCall1(numeric_out, PG_GETARG_DATUM(ARG_VALUE)));
	reserve(state, 1);
	rc = dpsel_grid_point(&state->grid, value, &state->points[state->count]);
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, psprintf("%s: a row's value (not shown: it is a record)",
									pg_dpsel_aggregate(fcinfo)));
	state->count++;
}

/* not partial: no merge, send nor receive (above) */
static const StateKind quantile_kind = {
	Q_TEXTS, quantile_names, quantile_read_row, quantile_alloc, quantile_start, quantile_add,
	NULL, NULL, NULL, ARG_FIRST_TEXT
};

DPSEL_PG_STATE_FUNCTION(quantile, trans, quantile_kind)

/* The release: a grid point, as a numeric with the resolution's digits. */
static Datum
quantile_final(FunctionCallInfo fcinfo)
{
	QuantileState *state = (QuantileState *) PG_GETARG_POINTER(0);
	const dpsel_selector *selector;
	dpsel_rng  *rng;
	int64		value = 0;
	char		text[DPSEL_UNITS_TEXT_MAX];
	int			rc;

	selector = pg_dpsel_selector(fcinfo, state->args.texts[Q_EPSILON],
								 (int64) state->sensitivity, false);
	rng = pg_dpsel_rng();
	/* the runs built, the point selected and the runs freed, asking the
	 * source's interrupt check throughout (pg_dpsel_rng) */
	rc = dpsel_quantile_select(selector, state->mechanism, state->a, state->b, state->points,
							   state->count, state->grid.lower, state->grid.upper, rng, &value);
	if (rc == DPSEL_OK)
		rc = dpsel_units_to_decimal(value, state->grid.resolution, text, sizeof text);
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, psprintf("%s: the release", pg_dpsel_aggregate(fcinfo)));
	PG_RETURN_DATUM(DirectFunctionCall3(numeric_in, CStringGetDatum(text),
										ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
}

/* dpsel_quantile (its parameters as texts) and dpsel_percentile (as
 * numerics): one state, one release. */
PG_FUNCTION_INFO_V1(dpsel_pg_quantile_final);
Datum
dpsel_pg_quantile_final(PG_FUNCTION_ARGS)
{
	return quantile_final(fcinfo);
}

PG_FUNCTION_INFO_V1(dpsel_pg_percentile_final);
Datum
dpsel_pg_percentile_final(PG_FUNCTION_ARGS)
{
	return quantile_final(fcinfo);
}
