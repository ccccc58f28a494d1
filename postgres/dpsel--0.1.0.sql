-- SPDX-License-Identifier: ISC
-- dpsel 0.1.0: exact differentially private selection (README.md, "PostgreSQL").
\echo Use "CREATE EXTENSION dpsel" to load this file. \quit

-- The aggregates, one release per group:
--   dpsel_pf(label text, score bigint, epsilon text [, sensitivity bigint [, monotonic boolean]])
--   dpsel_em(...), the same arguments                                        -> the chosen label
--   dpsel_quantile(value numeric, quantile text, lower text, upper text, epsilon text
--                  [, resolution text [, mechanism text]])                   -> the released point
-- Two kinds of state: the selections' (the library's partial selection) and
-- the quantile's.  Each kind has C support functions dpsel_<kind>_<role>
-- (symbol dpsel_pg_<kind>_<role>): one transition function for every
-- argument list, a combine, serial and deserial function, and a final
-- function per aggregate, dpsel_<aggregate>_final.  Transition, combine and
-- final functions draw random bits: VOLATILE (the default).  The selection's
-- SSPACE is its state at epsilon 1 (24 bytes per gap level up to the cap,
-- 89 levels, and the labels it keeps), for the planner's hash estimate.
-- Its final functions are READ_WRITE, although they leave the state as it
-- is, so that Postgres never shares one state between two aggregates of a
-- query (dpsel_pf and dpsel_em on the same arguments) nor finishes a
-- growing state row after row (a window aggregate): releases that share
-- the state's members are correlated beyond their composed epsilon
-- (spec/partial.md §5).
DO $$
DECLARE
    kind text;
    aggregates text[];
    result text;
    argument_lists text[];
    arguments text;
    aggregate text;
    f text[];
BEGIN
    FOR kind, aggregates, result, argument_lists IN VALUES
        ('select', ARRAY['pf', 'em'], 'text',
         ARRAY['text, bigint, text', 'text, bigint, text, bigint',
               'text, bigint, text, bigint, boolean']),
        ('quantile', ARRAY['quantile'], 'numeric',
         ARRAY['numeric, text, text, text, text', 'numeric, text, text, text, text, text',
               'numeric, text, text, text, text, text, text'])
    LOOP
        -- name, arguments, result, strictness of each C function of the kind
        FOREACH f SLICE 1 IN ARRAY ARRAY[
            [kind || '_combine', 'internal, internal', 'internal', 'CALLED ON NULL INPUT'],
            [kind || '_serial', 'internal', 'bytea', 'STRICT'],
            [kind || '_deserial', 'bytea, internal', 'internal', 'STRICT']]
            || (SELECT array_agg(ARRAY[kind || '_trans', 'internal, ' || a, 'internal',
                                  'CALLED ON NULL INPUT']) FROM unnest(argument_lists) a)
            || (SELECT array_agg(ARRAY[g || '_final', 'internal', result, 'STRICT'])
                FROM unnest(aggregates) g)
        LOOP
            EXECUTE format('CREATE FUNCTION dpsel_%s(%s) RETURNS %s AS %L, %L LANGUAGE C %s
                            PARALLEL SAFE', f[1], f[2], f[3], 'MODULE_PATHNAME',
                           'dpsel_pg_' || f[1], f[4]);
        END LOOP;
        FOREACH aggregate IN ARRAY aggregates LOOP
            FOREACH arguments IN ARRAY argument_lists LOOP
                EXECUTE format('CREATE AGGREGATE dpsel_%1$s(%2$s) (
                    SFUNC = dpsel_%3$s_trans, STYPE = internal, %4$s
                    FINALFUNC = dpsel_%1$s_final, FINALFUNC_MODIFY = %5$s,
                    COMBINEFUNC = dpsel_%3$s_combine,
                    SERIALFUNC = dpsel_%3$s_serial, DESERIALFUNC = dpsel_%3$s_deserial,
                    PARALLEL = SAFE)', aggregate, arguments, kind,
                    CASE kind WHEN 'select' THEN 'SSPACE = 4096,' ELSE '' END,
                    CASE kind WHEN 'select' THEN 'READ_WRITE' ELSE 'READ_ONLY' END);
            END LOOP;
        END LOOP;
    END LOOP;
END
$$;
