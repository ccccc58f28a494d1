-- SPDX-License-Identifier: ISC
-- dpsel 0.1.0: exact differentially private selection (README.md, "PostgreSQL").
\echo Use "CREATE EXTENSION dpsel" to load this file. \quit

-- The aggregates, one release per group (docs/postgresql.md), epsilon E a
-- text, numeric or double precision:
--   dpsel_pf(label text, score S, epsilon E [, sensitivity D [, monotonic boolean]])
--   dpsel_pf(label text, score S, epsilon E, sensitivity numeric, monotonic boolean,
--            resolution numeric)
--   dpsel_em(...), the same arguments                                        -> the chosen label
--       S smallint, integer, bigint or numeric (each integer type its own, so
--       that an integer column or constant picks one without ambiguity); D
--       the same or float8; a numeric or float8 D, or a resolution, makes
--       the scores decimals in units of the resolution (by default 10^-d,
--       d the sensitivity's fraction digits)
--   dpsel_mode(value text, candidates text[], epsilon E [, mechanism text])  -> a candidate
--   dpsel_quantile(value numeric, quantile text, lower text, upper text, epsilon text
--                  [, resolution text [, mechanism text]])                   -> the released point
--   dpsel_percentile(value numeric, q numeric, lower numeric, upper numeric, epsilon E
--                    [, resolution numeric [, mechanism text]])              -> the released point
-- Three kinds of state: the selections' (the library's partial selection
-- and the labels), the quantile's (dpsel_quantile and dpsel_percentile) and
-- the mode's.  Each kind has C support functions dpsel_<kind>_<role>
-- (symbol dpsel_pg_<kind>_<role>): one transition function for every
-- argument list, a final function per aggregate, dpsel_<aggregate>_final,
-- and, for the kinds whose state is partial, a combine, serial and deserial
-- function.  The quantile's state is not partial: it holds the group's
-- values, 8 bytes each, which a worker could not pass on past 1 GB (a
-- bytea's limit) however many rows a group has, so its aggregates have no
-- combine function and Postgres aggregates them in one process (the
-- leader above a Gather, or a single worker), the scan below still
-- parallel (docs/postgresql.md, "Parallel plans").  Transition, combine
-- and final functions draw random bits: VOLATILE (the default).  The selection's
-- SSPACE is its state at epsilon 1 (24 bytes per gap level up to the cap,
-- 89 levels, and the labels it keeps), for the planner's hash estimate.
-- The selections' and the mode's final functions are READ_WRITE, although
-- they leave the state as it is, so that Postgres never shares one state
-- between two aggregates of a query (dpsel_pf and dpsel_em on the same
-- arguments) nor finishes a growing state row after row (a window
-- aggregate): releases that share the state's members are correlated
-- beyond their composed epsilon (spec/partial.md §5), and a window would
-- release once per row.
DO $$
DECLARE
    kind text;
    aggregates text[];
    result text;
    argument_lists text[];
    arguments text;
    aggregate text;
    modify text;
    partial boolean;
    f text[];
    epsilons CONSTANT text[] := ARRAY['text', 'numeric', 'double precision'];
    -- each integer type its own (as the scores), and float8 so that an
    -- unknown literal ('3', NULL) picks one: numeric's preferred type
    sensitivities CONSTANT text[] := ARRAY['smallint', 'integer', 'bigint', 'numeric',
                                           'double precision'];
BEGIN
    FOR kind, aggregates, result, argument_lists, modify, partial IN VALUES
        ('select', ARRAY['pf', 'em'], 'text',
         (SELECT array_agg(format('text, %s, %s%s', s, e, t))
          FROM unnest(ARRAY['smallint', 'integer', 'bigint', 'numeric']) s, unnest(epsilons) e,
               unnest(ARRAY[''] || (SELECT array_agg(format(', %s%s', d, m))
                                    FROM unnest(sensitivities) d, unnest(ARRAY['', ', boolean']) m)
                      || ARRAY[', numeric, boolean, numeric']) t), 'READ_WRITE', true),
        ('mode', ARRAY['mode'], 'text',
         (SELECT array_agg(format('text, text[], %s%s', e, t))
          FROM unnest(epsilons) e, unnest(ARRAY['', ', text']) t), 'READ_WRITE', true),
        ('quantile', ARRAY['quantile'], 'numeric',
         ARRAY['numeric, text, text, text, text', 'numeric, text, text, text, text, text',
               'numeric, text, text, text, text, text, text'], 'READ_ONLY', false),
        ('quantile', ARRAY['percentile'], 'numeric',
         (SELECT array_agg(format('numeric, numeric, numeric, numeric, %s%s', e, t))
          FROM unnest(epsilons) e, unnest(ARRAY['', ', numeric', ', numeric, text']) t),
         'READ_ONLY', false)
    LOOP
        -- name, arguments, result, strictness of each C function of the kind,
        -- a partial kind's combine, serial and deserial functions first (OR
        -- REPLACE: dpsel_percentile's kind is dpsel_quantile's)
        FOREACH f SLICE 1 IN ARRAY (CASE WHEN partial THEN ARRAY[
            [kind || '_combine', 'internal, internal', 'internal', 'CALLED ON NULL INPUT'],
            [kind || '_serial', 'internal', 'bytea', 'STRICT'],
            [kind || '_deserial', 'bytea, internal', 'internal', 'STRICT']] END)
            || (SELECT array_agg(ARRAY[kind || '_trans', 'internal, ' || a, 'internal',
                                  'CALLED ON NULL INPUT']) FROM unnest(argument_lists) a)
            || (SELECT array_agg(ARRAY[g || '_final', 'internal', result, 'STRICT'])
                FROM unnest(aggregates) g)
        LOOP
            EXECUTE format('CREATE OR REPLACE FUNCTION dpsel_%s(%s) RETURNS %s AS %L, %L
                            LANGUAGE C %s PARALLEL SAFE', f[1], f[2], f[3], 'MODULE_PATHNAME',
                           'dpsel_pg_' || f[1], f[4]);
        END LOOP;
        FOREACH aggregate IN ARRAY aggregates LOOP
            FOREACH arguments IN ARRAY argument_lists LOOP
                EXECUTE format('CREATE AGGREGATE dpsel_%1$s(%2$s) (
                    SFUNC = dpsel_%3$s_trans, STYPE = internal, %4$s
                    FINALFUNC = dpsel_%1$s_final, FINALFUNC_MODIFY = %5$s, %6$s
                    PARALLEL = SAFE)', aggregate, arguments, kind,
                    CASE kind WHEN 'select' THEN 'SSPACE = 4096,' ELSE '' END, modify,
                    CASE WHEN partial THEN format('COMBINEFUNC = dpsel_%1$s_combine,
                        SERIALFUNC = dpsel_%1$s_serial, DESERIALFUNC = dpsel_%1$s_deserial,',
                        kind) ELSE '' END);
            END LOOP;
        END LOOP;
    END LOOP;
END
$$;
