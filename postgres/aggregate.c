/* SPDX-License-Identifier: ISC */
/*
 * The aggregate protocol, for every kind of state (StateKind): the
 * transition, combine, serial and deserial functions Postgres calls, so
 * that a Partial aggregate in each parallel worker and a Finalize aggregate
 * in the leader give the state of all the group's rows (the transition
 * alone for a kind whose state is not partial).
 *
 * Memory: a transition or combine function keeps its state in the
 * aggregate's context (AggCheckCallContext), which Postgres resets after
 * the group (sorted), the batch (hashed) or the query; a deserialised state
 * lives in the current (per-row) context, and the combine function copies
 * what it needs from it.  The states free what the library allocated for
 * them with those contexts (reset callbacks: select_agg.c).
 */
#include "dpsel_pg.h"

#include "libpq/pqformat.h"
#include "utils/memutils.h"

/* -------------------------------------------- the parameters as bytes */

/* The format: ntexts (1 byte), each text as a length (4 bytes, -1 for NULL)
 * and its bytes, the sensitivity (8), monotonic (1); network byte order. */
static void
row_params_send(StringInfo buf, const RowParams *params)
{
	pq_sendbyte(buf, (uint8) params->ntexts);
	for (int i = 0; i < params->ntexts; i++)
	{
		pq_sendint32(buf, params->texts[i] == NULL ? -1 : params->lengths[i]);
		if (params->texts[i] != NULL)
			pq_sendbytes(buf, params->texts[i], params->lengths[i]);
	}
	pq_sendint64(buf, (uint64) params->sensitivity);
	pq_sendbyte(buf, params->monotonic ? 1 : 0);
}

/* The bytes row_params_send writes. */
static int64
row_params_size(const RowParams *params)
{
	int64		size = 1 + 8 + 1;

	for (int i = 0; i < params->ntexts; i++)
		size += 4 + (params->texts[i] == NULL ? 0 : params->lengths[i]);
	return size;
}

/* The room of a state's data: half of MaxAllocSize (dpsel_pg.h), less the
 * bytea's header and the parameters. */
static int64
state_room(const RowParams *params)
{
	return (int64) (MaxAllocSize / 2) - VARHDRSZ - row_params_size(params);
}

void
pg_dpsel_check_room(FunctionCallInfo fcinfo, const RowParams *params, int64 bytes,
					const char *what, const char *detail)
{
	int64		room = state_room(params);

	if (bytes > room)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s: %s take more than " INT64_FORMAT " bytes of state",
						pg_dpsel_aggregate(fcinfo), what, room),
				 errdetail("%s", detail),
				 errhint("Give fewer or shorter candidates per group: a state passes between a "
						 "query's processes as one value, and a value takes at most 1 GB.")));
}

void
pg_dpsel_malformed(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("dpsel: malformed serialised state: %s", why)));
	pg_unreachable();
}

/* The parameters as a view into the message (pq_getmsg* refuse a length
 * past the end). */
static void
row_params_receive(StringInfo msg, int ntexts, RowParams *view)
{
	int			monotonic;

	view->ntexts = pq_getmsgbyte(msg);
	if (view->ntexts != ntexts)
		pg_dpsel_malformed("wrong number of parameters");
	for (int i = 0; i < ntexts; i++)
	{
		view->lengths[i] = pq_getmsgint(msg, 4);
		view->texts[i] = view->lengths[i] == -1 ? NULL : pq_getmsgbytes(msg, view->lengths[i]);
		view->raws[i] = NULL;
		view->raw_lengths[i] = 0;
		view->types[i] = InvalidOid;
		view->values[i] = (Datum) 0;
		if (view->texts[i] == NULL)
			view->lengths[i] = 0;
		else if (memchr(view->texts[i], '\0', view->lengths[i]) != NULL)
			pg_dpsel_malformed("a parameter holds a NUL byte");
	}
	view->sensitivity = pq_getmsgint64(msg);
	monotonic = pq_getmsgbyte(msg);
	if (monotonic != 0 && monotonic != 1)
		pg_dpsel_malformed("monotonic neither 0 nor 1");
	view->monotonic = monotonic == 1;
}

/* ------------------------------------------------------------ protocol */

/* An empty state in cxt for params. */
static RowParams *
state_new(FunctionCallInfo fcinfo, const StateKind *kind, MemoryContext cxt,
		  const RowParams *params)
{
	RowParams  *state = kind->alloc(fcinfo, cxt, params);

	kind->start(fcinfo, state, cxt);
	return state;
}

/*
 * The transition: the first row makes the state from its parameters (every
 * one checked then), every later row must repeat them, and the row's item
 * is added (a NULL item is skipped by the kind; a NULL parameter is an
 * error).  Parameters that are constants of the query repeat by
 * construction: later rows skip reading them (about a tenth of the
 * quantile's transition, its four texts compared).
 */
Datum
pg_dpsel_trans(FunctionCallInfo fcinfo, const StateKind *kind)
{
	MemoryContext cxt = pg_dpsel_agg_context(fcinfo);
	RowParams	row;
	RowParams  *state;

	if (PG_ARGISNULL(0))
	{
		kind->read_row(fcinfo, &row);
		state = state_new(fcinfo, kind, cxt, &row);
	}
	else
	{
		state = (RowParams *) PG_GETARG_POINTER(0);
		if (!pg_dpsel_args_stable(fcinfo, kind->first_param))
		{
			kind->read_row(fcinfo, &row);
			row_params_check(fcinfo, state, &row, kind->names);
		}
	}
	kind->add(fcinfo, state);
	PG_RETURN_POINTER(state);
}

/* Merges the second state into the first, which is made in the aggregate's
 * context when it is NULL (the second may live in a shorter one). */
Datum
pg_dpsel_combine(FunctionCallInfo fcinfo, const StateKind *kind)
{
	MemoryContext cxt = pg_dpsel_agg_context(fcinfo);
	RowParams  *into;
	RowParams  *from;			/* only its kept texts are read */

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_POINTER(PG_GETARG_POINTER(0));
	}
	from = (RowParams *) PG_GETARG_POINTER(1);
	if (PG_ARGISNULL(0))
		into = state_new(fcinfo, kind, cxt, from);
	else
	{
		into = (RowParams *) PG_GETARG_POINTER(0);
		row_params_check(fcinfo, into, from, kind->names);
	}
	kind->merge(fcinfo, into, from);
	PG_RETURN_POINTER(into);
}

/* The state as bytes: its parameters, then its data (kind->send). */
Datum
pg_dpsel_serial(FunctionCallInfo fcinfo, const StateKind *kind)
{
	const RowParams *state = (const RowParams *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	row_params_send(&buf, state);
	kind->send(fcinfo, &buf, state);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* A state from bytes, in the current memory context, its parameters
 * checked as at a first row and its data by the kind. */
Datum
pg_dpsel_deserial(FunctionCallInfo fcinfo, const StateKind *kind)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);
	StringInfoData msg;
	RowParams	params;
	RowParams  *state;

	/* read only: pq_getmsg* never write, nor read past len */
	msg.data = VARDATA_ANY(bytes);
	msg.len = VARSIZE_ANY_EXHDR(bytes);
	msg.maxlen = msg.len;
	msg.cursor = 0;
	row_params_receive(&msg, kind->ntexts, &params);
	state = kind->alloc(fcinfo, CurrentMemoryContext, &params);
	kind->receive(fcinfo, &msg, state);
	PG_RETURN_POINTER(state);
}
