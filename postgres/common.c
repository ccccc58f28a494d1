/* SPDX-License-Identifier: ISC */
/*
 * What the dpsel aggregates share: the process's random source, the
 * library's errors as SQL errors, their arguments, the parameters every row
 * repeats, and a per-process cache of parameters and selectors.
 */
#include "dpsel_pg.h"

#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

PG_MODULE_MAGIC;

/* ---------------------------------------------------------- random bits */

/*
 * One OS source per process, initialised on first use.  It stays at this
 * fixed address for the process's life: a copied dpsel_rng gives no bits.
 * Parallel workers are forked from the postmaster, which never draws: each
 * initialises its own; and were a process forked from one that had drawn,
 * the source's state page is wiped in the child (MADV_WIPEONFORK), so the
 * child's first read takes a fresh key from getrandom.  Never shared.
 */
static dpsel_rng process_rng;
static bool process_rng_ready = false;

/*
 * The interrupt check the source carries (dpsel_rng_set_interrupt): every
 * long library call that draws from it (a finish, a quantile's sort and
 * selection, a merge) asks it every few milliseconds of work and, told to
 * stop, returns DPSEL_ECANCELED having freed what it allocated; then
 * pg_dpsel_error lets Postgres raise its error.  A longjmp must never leave
 * the library (its memory would leak), so the check only reads Postgres's
 * flags: a cancel (statement_timeout, pg_cancel_backend) or a termination
 * pending, which ProcessInterrupts can act on now.  Other pending interrupts
 * (a parallel worker's message, a barrier) wait for the call's end: stopping
 * for them would fail the query.
 */
static int
cancel_pending(void *context, uint64_t done, uint64_t total)
{
	return INTERRUPTS_PENDING_CONDITION() && INTERRUPTS_CAN_BE_PROCESSED()
		&& (QueryCancelPending || ProcDiePending);
}

dpsel_rng *
pg_dpsel_rng(void)
{
	if (!process_rng_ready)
	{
		int			rc = dpsel_rng_init_os(&process_rng);

		if (rc == DPSEL_OK)
			rc = dpsel_rng_set_interrupt(&process_rng, cancel_pending, NULL);
		if (rc != DPSEL_OK)
			pg_dpsel_error(rc, "dpsel: the operating system's random source");
		process_rng_ready = true;
	}
	return &process_rng;
}

/* --------------------------------------------------------------- errors */

/* The SQLSTATE of a library error: bad arguments are the caller's, the
 * random source and memory the system's, the rest a bug. */
static int
sqlstate_of(int rc)
{
	switch (rc)
	{
		case DPSEL_EEPSILON:
		case DPSEL_ERANGE:
		case DPSEL_EDECIMAL:
		case DPSEL_EUNIT:
		case DPSEL_EEMPTY:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case DPSEL_ENOMEM:
			return ERRCODE_OUT_OF_MEMORY;
		case DPSEL_ETOOLARGE:
			return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
		case DPSEL_ESTATE:
			return ERRCODE_DATA_CORRUPTED;
		case DPSEL_ERANDOM:
		case DPSEL_EUNLIKELY:
			return ERRCODE_SYSTEM_ERROR;
		case DPSEL_ECANCELED:
			return ERRCODE_QUERY_CANCELED;
		default:
			return ERRCODE_INTERNAL_ERROR;
	}
}

/* The CONTEXT line of an error raised for a library call that its
 * interrupt check stopped (arg: what the call was). */
static void
stopped_context(void *arg)
{
	errcontext("%s, stopped by its interrupt check", (const char *) arg);
}

/* A library call stopped by cancel_pending: Postgres's own error (query
 * canceled, statement timeout, terminated) when it raises one now. */
static void
process_cancel(const char *what)
{
	ErrorContextCallback context;

	context.callback = stopped_context;
	context.arg = unconstify(char *, what);
	context.previous = error_context_stack;
	error_context_stack = &context;
	CHECK_FOR_INTERRUPTS();
	error_context_stack = context.previous;
}

void
pg_dpsel_error(int rc, const char *what)
{
	if (rc == DPSEL_ECANCELED)
		process_cancel(what);
	ereport(ERROR,
			(errcode(sqlstate_of(rc)),
			 errmsg("%s: %s", what, dpsel_strerror(rc))));
	pg_unreachable();
}

const char *
pg_dpsel_aggregate(FunctionCallInfo fcinfo)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	char	   *name = aggref != NULL ? get_func_name(aggref->aggfnoid) : NULL;

	return name != NULL ? name : "dpsel";
}

MemoryContext
pg_dpsel_agg_context(FunctionCallInfo fcinfo)
{
	MemoryContext cxt;

	if (!AggCheckCallContext(fcinfo, &cxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("dpsel: an aggregate's support function called outside an aggregate")));
	return cxt;
}

/* ------------------------------------------------------------ arguments */

void
pg_dpsel_require(FunctionCallInfo fcinfo, int i, const char *name)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s: %s must not be NULL", pg_dpsel_aggregate(fcinfo), name)));
}

void
pg_dpsel_text_arg(FunctionCallInfo fcinfo, int i, const char *name, const char **data,
				  int *length)
{
	text	   *value;

	pg_dpsel_require(fcinfo, i, name);
	value = PG_GETARG_TEXT_PP(i);
	*data = VARDATA_ANY(value);
	*length = VARSIZE_ANY_EXHDR(value);
}

/* ------------------------------------------------ parameters and selectors */

/*
 * Parameters and selectors cost MPFR work (the parameter search, the exact
 * powers of the base), and a query uses one or a few sets for thousands of
 * groups: the last CACHE_SIZE sets are kept, with their selector made on
 * first need.  The epsilon texts live in TopMemoryContext, the selectors
 * are the library's (malloc); an entry replaced frees both.
 */
#define CACHE_SIZE 8

typedef struct CachedParams
{
	char	   *epsilon;		/* NULL: an empty entry */
	int64		sensitivity;
	bool		monotonic;
	dpsel_params params;
	dpsel_selector *selector;	/* NULL until first needed */
} CachedParams;

static CachedParams cache[CACHE_SIZE];
static int	cache_next = 0;

static CachedParams *
cached_params(FunctionCallInfo fcinfo, const char *epsilon, int64 sensitivity, bool monotonic)
{
	CachedParams *entry;
	dpsel_params params;
	char	   *copy;
	int			rc;

	for (int i = 0; i < CACHE_SIZE; i++)
	{
		entry = &cache[i];
		if (entry->epsilon != NULL && entry->sensitivity == sensitivity
			&& entry->monotonic == monotonic && strcmp(entry->epsilon, epsilon) == 0)
			return entry;
	}
	/* the sensitivity is checked >= 1 where it is read */
	rc = dpsel_params_from_epsilon(&params, epsilon, (uint64) sensitivity, monotonic ? 1 : 0);
	if (rc != DPSEL_OK)
		pg_dpsel_error(rc, psprintf("%s: epsilon \"%s\" (sensitivity " INT64_FORMAT ")",
									pg_dpsel_aggregate(fcinfo), epsilon, sensitivity));
	copy = MemoryContextStrdup(TopMemoryContext, epsilon);
	entry = &cache[cache_next];
	cache_next = (cache_next + 1) % CACHE_SIZE;
	if (entry->epsilon != NULL)
		pfree(entry->epsilon);
	dpsel_selector_free(entry->selector);
	entry->epsilon = copy;
	entry->sensitivity = sensitivity;
	entry->monotonic = monotonic;
	entry->params = params;
	entry->selector = NULL;
	return entry;
}

void
pg_dpsel_params(FunctionCallInfo fcinfo, const char *epsilon, int64 sensitivity,
				bool monotonic, dpsel_params *out)
{
	*out = cached_params(fcinfo, epsilon, sensitivity, monotonic)->params;
}

const dpsel_selector *
pg_dpsel_selector(FunctionCallInfo fcinfo, const char *epsilon, int64 sensitivity,
				  bool monotonic)
{
	CachedParams *entry = cached_params(fcinfo, epsilon, sensitivity, monotonic);

	if (entry->selector == NULL)
	{
		int			rc = dpsel_selector_new(&entry->selector, &entry->params);

		if (rc != DPSEL_OK)
			pg_dpsel_error(rc, psprintf("%s: the selector for epsilon \"%s\"",
										pg_dpsel_aggregate(fcinfo), epsilon));
	}
	return entry->selector;
}

/* ------------------------------------------ the parameters rows repeat */

void
row_params_keep(RowParams *kept, const RowParams *row, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);

	*kept = *row;
	for (int i = 0; i < row->ntexts; i++)
		kept->texts[i] = row->texts[i] == NULL ? NULL : pnstrdup(row->texts[i], row->lengths[i]);
	MemoryContextSwitchTo(old);
}

/* A text for messages: quoted, or NULL. */
static const char *
quoted(const char *text, int length)
{
	return text == NULL ? "NULL" : psprintf("\"%s\"", pnstrdup(text, length));
}

static void
changed(FunctionCallInfo fcinfo, const char *name, const char *before, const char *after)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s: %s must be the same on every row of a group: %s, then %s",
					pg_dpsel_aggregate(fcinfo), name, before, after)));
}

void
row_params_check(FunctionCallInfo fcinfo, const RowParams *kept, const RowParams *row,
				 const char *const *names)
{
	for (int i = 0; i < kept->ntexts; i++)
	{
		const char *a = kept->texts[i],
				   *b = row->texts[i];

		if ((a == NULL) != (b == NULL)
			|| (a != NULL && (kept->lengths[i] != row->lengths[i]
							  || memcmp(a, b, row->lengths[i]) != 0)))
			changed(fcinfo, names[i], quoted(a, kept->lengths[i]), quoted(b, row->lengths[i]));
	}
	if (kept->sensitivity != row->sensitivity)
		changed(fcinfo, "the sensitivity", psprintf(INT64_FORMAT, kept->sensitivity),
				psprintf(INT64_FORMAT, row->sensitivity));
	if (kept->monotonic != row->monotonic)
		changed(fcinfo, "monotonic", kept->monotonic ? "true" : "false",
				row->monotonic ? "true" : "false");
}
