-- SPDX-License-Identifier: ISC
-- dpsel_mode where the data fix the release: a candidate no row names can
-- win, no rows give NULL, values of no candidate are dropped whatever their
-- number (at epsilon 50, 100 rows against 0 or 1: another release has
-- probability below 10^-500), and raw rows give their mode.

-- the only rows name no candidate: 'a', the only candidate
SELECT dpsel_mode(v, ARRAY['a'], 1) FROM (VALUES ('zzz'), (NULL)) t(v);
-- no rows: NULL
SELECT dpsel_mode(v, ARRAY['a', 'b'], 1) IS NULL FROM (VALUES ('a')) t(v) WHERE false;
-- 9900 rows of no candidate dropped
SELECT dpsel_mode(v, ARRAY['b', 'c'], 50)
    FROM (SELECT CASE WHEN g <= 100 THEN 'c' ELSE 'a' || g END v FROM generate_series(1, 10000) g) t;
-- the candidates from a column, the same on every row
SELECT dpsel_mode(v, c, 50)
    FROM (SELECT 'x' v, ARRAY['w', left(g::text, 0) || 'x'] c FROM generate_series(1, 100) g) t;
-- one row per person: the mode of each region ('married', half the rows)
CREATE TEMP TABLE people AS SELECT g % 3 AS region, CASE WHEN g % 10 < 5 THEN 'married'
    WHEN g % 10 < 8 THEN 'single' WHEN g % 10 < 9 THEN 'widowed' ELSE 'never' END AS status
    FROM generate_series(1, 3000) g;
SELECT region, dpsel_mode(status, ARRAY['married', 'single', 'widowed', 'never'], 50)
    FROM people GROUP BY region ORDER BY region;
