/* SPDX-License-Identifier: ISC */
/*
 * The aggregates' arguments and the parameters every row of a group repeats
 * (RowParams), and a per-process cache of parameters and selectors.
 */
#include "dpsel_pg.h"

#include "catalog/pg_type_d.h"
#include "common/shortest_dec.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

/* ------------------------------------------------------------ arguments */

void
pg_dpsel_require(FunctionCallInfo fcinfo, int i, const char *name)
{
	if (PG_ARGISNULL(i))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s: %s must not be NULL", pg_dpsel_aggregate(fcinfo), name)));
}

/* What a call site's expression tells of its arguments, found once (the
 * function's fn_extra): their types, and from which argument on they are
 * all stable (agg_arg_stable; PG_NARGS() when the last one is not). */
typedef struct CallSite
{
	int			stable_from;
	Oid			types[FLEXIBLE_ARRAY_MEMBER];
} CallSite;

/* Whether argument arg (1 on) of an aggregate's transition function is a
 * constant or an external parameter in the Aggref: one value for the whole
 * query.  The transition's own expression cannot tell: Postgres builds it
 * with placeholder parameters (build_aggregate_transfn_expr). */
static bool
agg_arg_stable(FunctionCallInfo fcinfo, int arg)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	Node	   *expr;

	if (aggref == NULL || arg < 1 || arg > list_length(aggref->args))
		return false;
	expr = (Node *) list_nth_node(TargetEntry, aggref->args, arg - 1)->expr;
	return IsA(expr, Const) || (IsA(expr, Param) && ((Param *) expr)->paramkind == PARAM_EXTERN);
}

static const CallSite *
call_site(FunctionCallInfo fcinfo)
{
	CallSite   *site = (CallSite *) fcinfo->flinfo->fn_extra;

	if (site == NULL)
	{
		site = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt,
								  offsetof(CallSite, types) + PG_NARGS() * sizeof(Oid));
		for (int i = 0; i < PG_NARGS(); i++)
			site->types[i] = get_fn_expr_argtype(fcinfo->flinfo, i);
		site->stable_from = PG_NARGS();
		while (site->stable_from > 0 && agg_arg_stable(fcinfo, site->stable_from - 1))
			site->stable_from--;
		fcinfo->flinfo->fn_extra = site;
	}
	return site;
}

static Oid
arg_type(FunctionCallInfo fcinfo, int arg)
{
	return call_site(fcinfo)->types[arg];
}

bool
pg_dpsel_args_stable(FunctionCallInfo fcinfo, int first)
{
	return call_site(fcinfo)->stable_from <= first;
}

Oid
pg_dpsel_arg_type(FunctionCallInfo fcinfo, int arg)
{
	return arg_type(fcinfo, arg);
}

void
pg_dpsel_param_arg(FunctionCallInfo fcinfo, int arg, const char *name, RowParams *row, int i)
{
	Oid			type = arg_type(fcinfo, arg);

	pg_dpsel_require(fcinfo, arg, name);
	row->types[i] = type;
	row->values[i] = PG_GETARG_DATUM(arg);
	row->texts[i] = NULL;
	row->lengths[i] = 0;
	if (type == TEXTOID || type == NUMERICOID)
	{
		struct varlena *value = PG_GETARG_VARLENA_PP(arg);

		row->values[i] = PointerGetDatum(value);
		row->raws[i] = VARDATA_ANY(value);
		row->raw_lengths[i] = VARSIZE_ANY_EXHDR(value);
		if (type == TEXTOID)
		{
			row->texts[i] = row->raws[i];
			row->lengths[i] = row->raw_lengths[i];
		}
	}
	else if (type == FLOAT8OID)
	{
		/* a float8 is passed by value: its bytes are the Datum's */
		row->raws[i] = (const char *) &row->values[i];
		row->raw_lengths[i] = sizeof(Datum);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: %s must be text, numeric or float8, not %s",
						pg_dpsel_aggregate(fcinfo), name, format_type_be(type))));
}

void
pg_dpsel_param_null(RowParams *row, int i)
{
	row->types[i] = InvalidOid;
	row->values[i] = (Datum) 0;
	row->texts[i] = NULL;
	row->lengths[i] = 0;
	row->raws[i] = NULL;
	row->raw_lengths[i] = 0;
}

void
pg_dpsel_param_default(RowParams *row, int i, const char *text)
{
	pg_dpsel_param_null(row, i);
	row->types[i] = TEXTOID;
	row->texts[i] = row->raws[i] = text;
	row->lengths[i] = row->raw_lengths[i] = (int) strlen(text);
}

/*
 * The text of parameter i, made once needed: numeric_out's (plain digits,
 * never an exponent; 'NaN', 'Infinity' as they are, which the library
 * refuses), or the float8's shortest decimal that reads back to it (Ryu,
 * integer arithmetic on its bits: the text PostgreSQL prints for it; 0.1
 * is "0.1", not its binary value 0.1000000000000000055...).
 */
static void
param_text(RowParams *row, int i)
{
	char	   *text;

	if (row->texts[i] != NULL || row->raws[i] == NULL)
		return;
	if (row->types[i] == NUMERICOID)
		text = DatumGetCString(DirectFunctionCall1(numeric_out, row->values[i]));
	else
	{
		text = palloc(DOUBLE_SHORTEST_DECIMAL_LEN);
		double_to_shortest_decimal_buf(DatumGetFloat8(row->values[i]), text);
	}
	row->texts[i] = text;
	row->lengths[i] = (int) strlen(text);
}

dpsel_mechanism
pg_dpsel_mechanism(FunctionCallInfo fcinfo, const char *name)
{
	if (strcmp(name, "em") == 0)
		return DPSEL_EM;
	if (strcmp(name, "pf") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s: the mechanism must be 'em' or 'pf', not \"%s\"",
						pg_dpsel_aggregate(fcinfo), name)));
	return DPSEL_PF;
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

/* A NUL-terminated copy of length bytes in the current memory context. */
static char *
copy_bytes(const char *bytes, int length)
{
	char	   *copy = palloc(length + 1);

	memcpy(copy, bytes, length);
	copy[length] = '\0';
	return copy;
}

void
row_params_keep(RowParams *kept, const RowParams *row, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);

	*kept = *row;
	for (int i = 0; i < row->ntexts; i++)
	{
		param_text(kept, i);
		kept->texts[i] = kept->texts[i] == NULL ? NULL : copy_bytes(kept->texts[i], kept->lengths[i]);
		kept->raws[i] = kept->raws[i] == NULL ? NULL : copy_bytes(kept->raws[i], kept->raw_lengths[i]);
		kept->values[i] = (Datum) 0;
	}
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

/* Parameter i of row and kept given alike: the same bytes of the same
 * type (a row's usual case, no text made), or else the same text. */
static bool
same_param(const RowParams *kept, RowParams *row, int i)
{
	if (kept->raws[i] != NULL && row->raws[i] != NULL && kept->types[i] == row->types[i]
		&& kept->raw_lengths[i] == row->raw_lengths[i]
		&& memcmp(kept->raws[i], row->raws[i], row->raw_lengths[i]) == 0)
		return true;
	param_text(row, i);
	if (kept->texts[i] == NULL || row->texts[i] == NULL)
		return kept->texts[i] == row->texts[i];
	return kept->lengths[i] == row->lengths[i]
		&& memcmp(kept->texts[i], row->texts[i], row->lengths[i]) == 0;
}

void
row_params_check(FunctionCallInfo fcinfo, const RowParams *kept, RowParams *row,
				 const char *const *names)
{
	for (int i = 0; i < kept->ntexts; i++)
		if (!same_param(kept, row, i))
			changed(fcinfo, names[i], quoted(kept->texts[i], kept->lengths[i]),
					quoted(row->texts[i], row->lengths[i]));
	if (kept->sensitivity != row->sensitivity)
		changed(fcinfo, "the sensitivity", psprintf(INT64_FORMAT, kept->sensitivity),
				psprintf(INT64_FORMAT, row->sensitivity));
	if (kept->monotonic != row->monotonic)
		changed(fcinfo, "monotonic", kept->monotonic ? "true" : "false",
				row->monotonic ? "true" : "false");
}
