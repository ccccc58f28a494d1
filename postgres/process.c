/* SPDX-License-Identifier: ISC */
/*
 * What the dpsel aggregates take from the process they run in: its random
 * source (with an interrupt check), the library's errors as SQL errors, and
 * the calling aggregate's name and memory context.
 */
#include "dpsel_pg.h"

#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/lsyscache.h"

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
