-- SPDX-License-Identifier: ISC
-- dpsel 0.1.0: exact differentially private selection (README.md, "PostgreSQL").
\echo Use "CREATE EXTENSION dpsel" to load this file. \quit

-- The aggregates release one value per group (docs/postgresql.md): dpsel_pf
-- and dpsel_em a label, dpsel_mode a candidate, dpsel_quantile and
-- dpsel_percentile a point of a grid.  Epsilon E is a text, numeric or
-- double precision, read as its decimal text.
--
-- Three kinds of state: the selections' (the library's partial selection
-- and the labels), the mode's and the quantile's (dpsel_quantile's and
-- dpsel_percentile's).  Each kind has C support functions dpsel_<kind>_<role>
-- (symbol dpsel_pg_<kind>_<role>): one transition function for every
-- argument list, a final function per aggregate, dpsel_<aggregate>_final,
-- and, for the kinds whose state is partial, a combine, serial and deserial
-- function.  The quantile's state is not partial: it holds the group's
-- values, 8 bytes each, which a worker could not pass on past 1 GB (a
-- bytea's limit) however many rows a group has, so its aggregates have no
-- combine function and Postgres aggregates them in one process (the leader
-- above a Gather, or a single worker), the scan below still parallel
-- (docs/postgresql.md, "Parallel plans").
--
-- Transition, combine and final functions draw random bits: VOLATILE (the
-- default).  Transition and combine functions are called on NULL input
-- (the default): a row with a NULL item is skipped, a NULL parameter is an
-- error naming it; final, serial and deserial functions are STRICT.
-- Every function is PARALLEL SAFE: each process has its own random source.
--
-- The selections' and the mode's final functions are READ_WRITE, although
-- they leave the state as it is, so that Postgres never shares one state
-- between two aggregates of a query (dpsel_pf and dpsel_em on the same
-- arguments) nor finishes a growing state row after row (a window
-- aggregate): releases that share the state's members are correlated
-- beyond their composed epsilon (spec/partial.md §5), and a window would
-- release once per row.

-- ----------------------------------------------------------- the selections

-- The selections' support functions.
-- dpsel_select_combine(state, state): the second partial selection merged
--   into the first (the leader's Finalize aggregate over its workers').
-- dpsel_select_serial(state) -> bytea, dpsel_select_deserial(bytea, internal):
--   a worker's partial selection passed on as one value, and read back.
CREATE FUNCTION dpsel_select_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_combine' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_serial(internal) RETURNS bytea
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_serial' LANGUAGE C STRICT PARALLEL SAFE;
CREATE FUNCTION dpsel_select_deserial(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_deserial' LANGUAGE C STRICT PARALLEL SAFE;

-- dpsel_select_trans(state, label text, score S, epsilon E [, sensitivity D
--   [, monotonic boolean]]) and (state, label, score, epsilon, sensitivity
--   numeric, monotonic, resolution numeric): the row's candidate (label,
--   score) added to the group's partial selection; a NULL label or score
--   skips the row, two rows with one label are an error.  S is smallint,
--   integer, bigint or numeric (each integer type its own, so that an
--   integer column or constant picks one without ambiguity); D the same or
--   double precision (so that an unknown literal, '3' or NULL, picks one:
--   numeric's preferred type).  A numeric or double precision D, or a
--   resolution, makes the scores decimals in units of the resolution (by
--   default 10^-d, d the sensitivity's fraction digits).  Sensitivity 1 and
--   monotonic false by default.

CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, text, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, numeric, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, smallint, double precision, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION dpsel_select_trans(internal, text, integer, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, text, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, numeric, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, integer, double precision, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, text, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, numeric, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, bigint, double precision, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, text, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, numeric, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, smallint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, integer, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, bigint, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, numeric, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, double precision, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_select_trans(internal, text, numeric, double precision, numeric, boolean, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_select_trans' LANGUAGE C PARALLEL SAFE;

-- dpsel_pf_final(state), dpsel_em_final(state) -> text: the group's chosen
--   label, by permute-and-flip or the exponential mechanism; NULL for a
--   group without candidates.
CREATE FUNCTION dpsel_pf_final(internal) RETURNS text
	AS 'MODULE_PATHNAME', 'dpsel_pg_pf_final' LANGUAGE C STRICT PARALLEL SAFE;
CREATE FUNCTION dpsel_em_final(internal) RETURNS text
	AS 'MODULE_PATHNAME', 'dpsel_pg_em_final' LANGUAGE C STRICT PARALLEL SAFE;

-- dpsel_pf(label text, score S, epsilon E [, sensitivity D [, monotonic boolean]])
-- dpsel_pf(label text, score S, epsilon E, sensitivity numeric, monotonic boolean,
--          resolution numeric) -> text
--   The label of the group's rows (one row per candidate) chosen by
--   permute-and-flip at epsilon from their scores of sensitivity D,
--   monotonic as the tool's --monotonic.  SSPACE is the state at epsilon 1
--   (24 bytes per gap level up to the cap, 89 levels, and the labels it
--   keeps), for the planner's hash estimate.

-- smallint scores, epsilon text
CREATE AGGREGATE dpsel_pf(text, smallint, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- smallint scores, epsilon numeric
CREATE AGGREGATE dpsel_pf(text, smallint, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- smallint scores, epsilon double precision
CREATE AGGREGATE dpsel_pf(text, smallint, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, smallint, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- integer scores, epsilon text
CREATE AGGREGATE dpsel_pf(text, integer, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- integer scores, epsilon numeric
CREATE AGGREGATE dpsel_pf(text, integer, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- integer scores, epsilon double precision
CREATE AGGREGATE dpsel_pf(text, integer, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, integer, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- bigint scores, epsilon text
CREATE AGGREGATE dpsel_pf(text, bigint, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- bigint scores, epsilon numeric
CREATE AGGREGATE dpsel_pf(text, bigint, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- bigint scores, epsilon double precision
CREATE AGGREGATE dpsel_pf(text, bigint, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, bigint, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- numeric scores, epsilon text
CREATE AGGREGATE dpsel_pf(text, numeric, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- numeric scores, epsilon numeric
CREATE AGGREGATE dpsel_pf(text, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- numeric scores, epsilon double precision
CREATE AGGREGATE dpsel_pf(text, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_pf(text, numeric, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_pf_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- dpsel_em(label text, score S, epsilon E [, sensitivity D [, monotonic boolean]])
-- dpsel_em(label text, score S, epsilon E, sensitivity numeric, monotonic boolean,
--          resolution numeric) -> text
--   The same arguments as dpsel_pf: the label chosen by the exponential
--   mechanism.

-- smallint scores, epsilon text
CREATE AGGREGATE dpsel_em(text, smallint, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- smallint scores, epsilon numeric
CREATE AGGREGATE dpsel_em(text, smallint, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- smallint scores, epsilon double precision
CREATE AGGREGATE dpsel_em(text, smallint, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, smallint, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- integer scores, epsilon text
CREATE AGGREGATE dpsel_em(text, integer, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- integer scores, epsilon numeric
CREATE AGGREGATE dpsel_em(text, integer, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- integer scores, epsilon double precision
CREATE AGGREGATE dpsel_em(text, integer, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, integer, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- bigint scores, epsilon text
CREATE AGGREGATE dpsel_em(text, bigint, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- bigint scores, epsilon numeric
CREATE AGGREGATE dpsel_em(text, bigint, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- bigint scores, epsilon double precision
CREATE AGGREGATE dpsel_em(text, bigint, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, bigint, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- numeric scores, epsilon text
CREATE AGGREGATE dpsel_em(text, numeric, text) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, text, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- numeric scores, epsilon numeric
CREATE AGGREGATE dpsel_em(text, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, numeric, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- numeric scores, epsilon double precision
CREATE AGGREGATE dpsel_em(text, numeric, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, smallint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, smallint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, integer) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, integer, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, bigint) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, bigint, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, numeric, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, double precision) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, double precision, boolean) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_em(text, numeric, double precision, numeric, boolean, numeric) (
	SFUNC = dpsel_select_trans, STYPE = internal, SSPACE = 4096,
	FINALFUNC = dpsel_em_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_select_combine, SERIALFUNC = dpsel_select_serial,
	DESERIALFUNC = dpsel_select_deserial, PARALLEL = SAFE);

-- ----------------------------------------------------------------- the mode

-- The mode's support functions: dpsel_mode_combine, dpsel_mode_serial and
-- dpsel_mode_deserial as the selections' (a partial state of counts);
-- dpsel_mode_trans(state, value text, candidates text[], epsilon E
-- [, mechanism text]): the row's value counted if it is a candidate
-- (a NULL or another value is dropped); dpsel_mode_final(state) -> text:
-- the chosen candidate.
CREATE FUNCTION dpsel_mode_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_combine' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_serial(internal) RETURNS bytea
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_serial' LANGUAGE C STRICT PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_deserial(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_deserial' LANGUAGE C STRICT PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_trans(internal, text, text[], text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_trans(internal, text, text[], text, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_trans(internal, text, text[], numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_trans(internal, text, text[], numeric, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_trans(internal, text, text[], double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_trans(internal, text, text[], double precision, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_mode_final(internal) RETURNS text
	AS 'MODULE_PATHNAME', 'dpsel_pg_mode_final' LANGUAGE C STRICT PARALLEL SAFE;

-- dpsel_mode(value text, candidates text[], epsilon E [, mechanism text]) -> text
--   The candidate (a public list, the same on every row) chosen by its count
--   of rows whose value it is, a count of sensitivity 1 and monotonic, by
--   the mechanism 'pf' (permute-and-flip, the default) or 'em'; a candidate
--   no row names can win.
CREATE AGGREGATE dpsel_mode(text, text[], text) (
	SFUNC = dpsel_mode_trans, STYPE = internal,
	FINALFUNC = dpsel_mode_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_mode_combine, SERIALFUNC = dpsel_mode_serial,
	DESERIALFUNC = dpsel_mode_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_mode(text, text[], text, text) (
	SFUNC = dpsel_mode_trans, STYPE = internal,
	FINALFUNC = dpsel_mode_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_mode_combine, SERIALFUNC = dpsel_mode_serial,
	DESERIALFUNC = dpsel_mode_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_mode(text, text[], numeric) (
	SFUNC = dpsel_mode_trans, STYPE = internal,
	FINALFUNC = dpsel_mode_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_mode_combine, SERIALFUNC = dpsel_mode_serial,
	DESERIALFUNC = dpsel_mode_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_mode(text, text[], numeric, text) (
	SFUNC = dpsel_mode_trans, STYPE = internal,
	FINALFUNC = dpsel_mode_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_mode_combine, SERIALFUNC = dpsel_mode_serial,
	DESERIALFUNC = dpsel_mode_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_mode(text, text[], double precision) (
	SFUNC = dpsel_mode_trans, STYPE = internal,
	FINALFUNC = dpsel_mode_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_mode_combine, SERIALFUNC = dpsel_mode_serial,
	DESERIALFUNC = dpsel_mode_deserial, PARALLEL = SAFE);
CREATE AGGREGATE dpsel_mode(text, text[], double precision, text) (
	SFUNC = dpsel_mode_trans, STYPE = internal,
	FINALFUNC = dpsel_mode_final, FINALFUNC_MODIFY = READ_WRITE,
	COMBINEFUNC = dpsel_mode_combine, SERIALFUNC = dpsel_mode_serial,
	DESERIALFUNC = dpsel_mode_deserial, PARALLEL = SAFE);

-- ------------------------------------------------------------ the quantiles

-- The quantile's support functions (no combine: its state is not partial).
-- dpsel_quantile_trans(state, value numeric, ...): the row's value kept (a
-- NULL skipped), for dpsel_quantile's argument lists and dpsel_percentile's;
-- dpsel_quantile_final(state), dpsel_percentile_final(state) -> numeric:
-- the released point of the grid.
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, text, text, text, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, text, text, text, text, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, text, text, text, text, text, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, text, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, text, numeric, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, numeric, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, numeric, numeric, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, double precision, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_trans(internal, numeric, numeric, numeric, numeric, double precision, numeric, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_trans' LANGUAGE C PARALLEL SAFE;
CREATE FUNCTION dpsel_quantile_final(internal) RETURNS numeric
	AS 'MODULE_PATHNAME', 'dpsel_pg_quantile_final' LANGUAGE C STRICT PARALLEL SAFE;
CREATE FUNCTION dpsel_percentile_final(internal) RETURNS numeric
	AS 'MODULE_PATHNAME', 'dpsel_pg_percentile_final' LANGUAGE C STRICT PARALLEL SAFE;

-- dpsel_quantile(value numeric, quantile text, lower text, upper text, epsilon text
--                [, resolution text [, mechanism text]]) -> numeric
--   The q-quantile of the group's values, each clamped into [lower, upper]
--   and rounded down to the grid of steps of the resolution (NULL or
--   absent: 10^-d, d the fraction digits of lower and upper), released by the exponential mechanism ('em', the default) or
--   permute-and-flip ('pf'); the parameters as decimal texts, read exactly.
CREATE AGGREGATE dpsel_quantile(numeric, text, text, text, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_quantile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_quantile(numeric, text, text, text, text, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_quantile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_quantile(numeric, text, text, text, text, text, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_quantile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);

-- dpsel_percentile(value numeric, q numeric, lower numeric, upper numeric, epsilon E
--                  [, resolution numeric [, mechanism text]]) -> numeric
--   dpsel_quantile with numeric parameters (epsilon E any of the three).
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, text, numeric) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, text, numeric, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, numeric) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, numeric, numeric) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, numeric, numeric, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, double precision) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, double precision, numeric) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
CREATE AGGREGATE dpsel_percentile(numeric, numeric, numeric, numeric, double precision, numeric, text) (
	SFUNC = dpsel_quantile_trans, STYPE = internal,
	FINALFUNC = dpsel_percentile_final, FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE);
