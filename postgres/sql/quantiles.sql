-- SPDX-License-Identifier: ISC
-- dpsel_quantile where the data fix the release: NULLs, no rows, and every
-- numeric a value, clamped into the grid and rounded down, never an error
-- (spec/quantiles.md §6): NaN at the upper end, the infinities at theirs.
-- 100 copies of one value at epsilon 50 release its grid point but with
-- probability below 10^-1000.

-- values all NULL: a release on no data (the grid's one point); no rows: NULL
SELECT dpsel_quantile(v, '0.5', '7', '7', '1') FROM (VALUES (NULL::numeric)) t(v);
SELECT dpsel_quantile(v, '0.5', '0', '9', '1') IS NULL FROM (VALUES (1::numeric)) t(v) WHERE false;
-- integers, clamped (epsilon 80)
SELECT dpsel_quantile(v, '0.5', '-2.5', '2.5', '80') FROM (VALUES (-9), (1), (9)) t(v);
-- 100 copies of one value, whatever its digits
CREATE FUNCTION median_of_copies(value numeric) RETURNS numeric
    AS $$ SELECT dpsel_quantile(v, '0.5', '-10', '10', '50', '0.5')
          FROM (SELECT value AS v FROM generate_series(1, 100)) t $$ LANGUAGE SQL;
SELECT median_of_copies(1e200);
SELECT median_of_copies((1e-200::float8)::numeric);
SELECT median_of_copies(round(0.5, 130));
SELECT median_of_copies(-1e-1000);
SELECT median_of_copies(('1' || repeat('0', 130000))::numeric);
SELECT median_of_copies('NaN'::numeric);
SELECT median_of_copies(('NaN'::float8)::numeric);
SELECT median_of_copies('Infinity'::numeric);
SELECT median_of_copies('-Infinity'::numeric);
-- the four long values together
SELECT dpsel_quantile(v, '0.5', '0', '10', '1') IS NOT NULL
    FROM (VALUES (1e200), ((1e-200::float8)::numeric), (round(0.5, 130)), (-1e-1000)) t(v);
