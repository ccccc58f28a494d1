/* SPDX-License-Identifier: ISC */
/*
 * The dpsel PostgreSQL extension: what its aggregates share, the process's
 * services (process.c), their arguments and parameters (row_params.c) and
 * the aggregate protocol (aggregate.c).
 *
 * The aggregates (dpsel--0.1.0.sql) are dpsel_pf and dpsel_em (select_agg.c),
 * dpsel_mode (mode_agg.c), dpsel_quantile and dpsel_percentile
 * (quantile_agg.c).  Each keeps, besides its data, the
 * parameters its first row gave, which every later row (and every partial
 * state merged into it) must repeat: a RowParams.  aggregate.c runs the
 * aggregate protocol for every kind of state (StateKind).
 */
#ifndef DPSEL_PG_H
#define DPSEL_PG_H

#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"

#include <dpsel.h>

/* The parameters every row of a group repeats: up to ROW_TEXTS_MAX texts
 * (epsilon, the quantile's grid...) and, for the selections, the
 * sensitivity and monotonicity (0 and false elsewhere).  A parameter is
 * given as text, numeric or float8 (types[i]); the library reads its text:
 * the text itself, numeric_out's, or a float8's shortest decimal (the one
 * PostgreSQL prints, whatever extra_float_digits: pg_dpsel_param_text).
 * A row's view holds the argument's bytes (raws[i]: a text's characters, a
 * numeric's digits, a float8's 8 bytes) and its text only once needed
 * (NULL before); a kept copy (row_params_keep) holds both, the texts
 * NUL-terminated; a deserialised state holds the texts alone.  A NULL
 * parameter (the quantile's resolution, where one is allowed) has neither. */
#define ROW_TEXTS_MAX 6
typedef struct RowParams
{
	int			ntexts;
	const char *texts[ROW_TEXTS_MAX];
	int			lengths[ROW_TEXTS_MAX];
	const char *raws[ROW_TEXTS_MAX];
	int			raw_lengths[ROW_TEXTS_MAX];
	Oid			types[ROW_TEXTS_MAX];
	Datum		values[ROW_TEXTS_MAX];	/* a row's view: the argument */
	int64		sensitivity;
	bool		monotonic;
} RowParams;

/* --------------------------------------------- the process (process.c) */

/* The random source of this process (backend or parallel worker), with
 * an interrupt check: a library call that draws from it stops with
 * DPSEL_ECANCELED when a cancel or termination is pending. */
extern dpsel_rng *pg_dpsel_rng(void);

/* ERROR for the library's error code rc: "<what>: <dpsel_strerror(rc)>";
 * for DPSEL_ECANCELED, Postgres's own error for the pending cancel or
 * termination first (CHECK_FOR_INTERRUPTS). */
extern void pg_dpsel_error(int rc, const char *what) pg_attribute_noreturn();

/* The calling aggregate's name, for messages ("dpsel" when unknown). */
extern const char *pg_dpsel_aggregate(FunctionCallInfo fcinfo);

/* The aggregate's long-lived memory context; ERROR outside an aggregate. */
extern MemoryContext pg_dpsel_agg_context(FunctionCallInfo fcinfo);

/* ----------------------------- arguments and parameters (row_params.c) */

/* ERROR if argument i (named `name`) is NULL. */
extern void pg_dpsel_require(FunctionCallInfo fcinfo, int i, const char *name);

/* The type of argument arg (looked up once per call site). */
extern Oid	pg_dpsel_arg_type(FunctionCallInfo fcinfo, int arg);

/* Whether arguments first .. PG_NARGS() - 1 of an aggregate's transition
 * are all constants of the query (Consts or external Params in its Aggref;
 * found once per call site). */
extern bool pg_dpsel_args_stable(FunctionCallInfo fcinfo, int first);

/* Argument arg (named `name`: text, numeric or float8) as parameter i of
 * row: a view of its bytes; ERROR if it is NULL or of another type. */
extern void pg_dpsel_param_arg(FunctionCallInfo fcinfo, int arg, const char *name, RowParams *row,
							   int i);

/* Parameter i of row as NULL (no argument, or an SQL NULL where allowed). */
extern void pg_dpsel_param_null(RowParams *row, int i);

/* Parameter i of row with the text `text` (a default). */
extern void pg_dpsel_param_default(RowParams *row, int i, const char *text);

/* The mechanism named 'pf' or 'em'; ERROR naming it otherwise. */
extern dpsel_mechanism pg_dpsel_mechanism(FunctionCallInfo fcinfo, const char *name);

/* The parameters of `epsilon`, sensitivity and monotonicity into *out
 * (dpsel_params_from_epsilon, cached per process); ERROR naming them. */
extern void pg_dpsel_params(FunctionCallInfo fcinfo, const char *epsilon, int64 sensitivity,
							bool monotonic, dpsel_params *out);

/* The selector of those parameters, kept by the process's cache: valid
 * until the next pg_dpsel_params or pg_dpsel_selector call. */
extern const dpsel_selector *pg_dpsel_selector(FunctionCallInfo fcinfo, const char *epsilon,
											   int64 sensitivity, bool monotonic);

/* A copy of row in cxt, its texts NUL-terminated. */
extern void row_params_keep(RowParams *kept, const RowParams *row, MemoryContext cxt);

/* ERROR unless `row` repeats `kept` exactly (texts byte for byte);
 * names[i] names text i in the message. */
extern void row_params_check(FunctionCallInfo fcinfo, const RowParams *kept, RowParams *row,
							 const char *const *names);

/* ---------------------------------------------- the aggregate protocol */

/*
 * A kind of state (the selections', the mode's, the quantile's): what
 * aggregate.c's transition, combine, serial and deserial functions need of
 * it.  Every state begins with its RowParams, so that a state's pointer is
 * also its parameters'.  Every hook reports its errors with ERROR.  A kind
 * whose state is not partial (the quantile's: its aggregates have no
 * combine function) has no merge, send nor receive.
 */
typedef struct StateKind
{
	int			ntexts;			/* the texts of its RowParams */
	const char *const *names;	/* names[i] names text i in messages */
	/* the row's parameters, a view into its arguments */
	void		(*read_row) (FunctionCallInfo fcinfo, RowParams *row);
	/* a state in cxt for params (copied and checked), without data yet */
	RowParams  *(*alloc) (FunctionCallInfo fcinfo, MemoryContext cxt, const RowParams *params);
	/* its data, empty */
	void		(*start) (FunctionCallInfo fcinfo, RowParams *state, MemoryContext cxt);
	/* the row's item into the state (a row with a NULL item is skipped) */
	void		(*add) (FunctionCallInfo fcinfo, RowParams *state);
	/* from's items into into (same parameters; from left as it is) */
	void		(*merge) (FunctionCallInfo fcinfo, RowParams *into, const RowParams *from);
	/* the data as bytes after the parameters, and back (into a state
	 * from alloc, in the current memory context) */
	void		(*send) (FunctionCallInfo fcinfo, StringInfo buf, const RowParams *state);
	void		(*receive) (FunctionCallInfo fcinfo, StringInfo msg, RowParams *state);
	/* the first argument read_row reads: from it on, arguments that are
	 * constants of the query are read and checked on a state's first row
	 * only */
	int			first_param;
} StateKind;

/*
 * ERROR unless `bytes`, the most a partial state's data (kind->send's) can
 * take, fit the room a state has for its parameters: "<aggregate>: <what>
 * take more than N bytes of state", with `detail`.  A worker passes its
 * state on as one bytea in a row of its Partial aggregate, and PostgreSQL
 * holds a value, and a row, in at most 1 GB (MaxAllocSize): the room is
 * half of that, less the bytea's header and the parameters, so that the
 * row's group key and other columns have the rest.  A kind checks its
 * state in every plan, from public things alone (its candidates), so that
 * no plan fails where another releases; N is a function of the parameters.
 */
extern void pg_dpsel_check_room(FunctionCallInfo fcinfo, const RowParams *params, int64 bytes,
								const char *what, const char *detail);

/* ERROR for a malformed serialised state. */
extern void pg_dpsel_malformed(const char *why) pg_attribute_noreturn();

extern Datum pg_dpsel_trans(FunctionCallInfo fcinfo, const StateKind *kind);
extern Datum pg_dpsel_combine(FunctionCallInfo fcinfo, const StateKind *kind);
extern Datum pg_dpsel_serial(FunctionCallInfo fcinfo, const StateKind *kind);
extern Datum pg_dpsel_deserial(FunctionCallInfo fcinfo, const StateKind *kind);

/* The SQL entry points dpsel_pg_<name>_trans, _combine, _serial and
 * _deserial of a kind of partial state (DPSEL_PG_STATE_FUNCTIONS), or
 * dpsel_pg_<name>_trans alone (DPSEL_PG_STATE_FUNCTION(name, trans, kind)). */
#define DPSEL_PG_STATE_FUNCTION(name, role, kind) \
	PG_FUNCTION_INFO_V1(dpsel_pg_##name##_##role); \
	Datum dpsel_pg_##name##_##role(PG_FUNCTION_ARGS) { return pg_dpsel_##role(fcinfo, &(kind)); }
#define DPSEL_PG_STATE_FUNCTIONS(name, kind) \
	DPSEL_PG_STATE_FUNCTION(name, trans, kind) \
	DPSEL_PG_STATE_FUNCTION(name, combine, kind) \
	DPSEL_PG_STATE_FUNCTION(name, serial, kind) \
	DPSEL_PG_STATE_FUNCTION(name, deserial, kind)

#endif							/* DPSEL_PG_H */
