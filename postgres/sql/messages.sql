-- SPDX-License-Identifier: ISC
-- Refusals that rows cause: a parameter that changes between the rows of a
-- group (the message shows the two public values), a label given twice and
-- a label too long (the message shows neither the label nor any other
-- value of the data).

-- the selections
SELECT dpsel_pf(l, s, '1', d) FROM (VALUES ('a', 1, 0.5), ('b', 2, 0.25)) v(l, s, d);
SELECT dpsel_pf(l, s, '1', 1, true, r) FROM (VALUES ('a', 1, 0.5), ('b', 2, 0.25)) v(l, s, r);
SELECT dpsel_pf(l, s, e) FROM (VALUES ('a', 1, '1'), ('b', 2, '0.5')) v(l, s, e);
SELECT dpsel_pf(l, s, '1', 1, m) FROM (VALUES ('a', 1, false), ('b', 2, true)) v(l, s, m);
SELECT dpsel_pf(repeat('x', 65537), 1, '1');
SELECT dpsel_pf(l, s, e) FROM (VALUES ('a', 1, 0.5::float8), ('b', 2, 0.1)) v(l, s, e);
SELECT dpsel_pf(l, s, 1) FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) v(l, s);

-- (dpsel_em)
SELECT dpsel_em(l, s, '1', d) FROM (VALUES ('a', 1, 1), ('b', 2, 2)) v(l, s, d);
SELECT dpsel_em(l, s, e) FROM (VALUES ('a', 1, 0.10), ('b', 2, 0.1)) v(l, s, e);

-- dpsel_mode
SELECT dpsel_mode(v, c, 1) FROM (VALUES ('a', ARRAY['a', 'b']), ('b', ARRAY['a', 'c'])) t(v, c);

-- dpsel_quantile
SELECT dpsel_quantile(v, '0.5', l, '10', '1') FROM (VALUES (1, '0'), (2, '1')) t(v, l);

-- dpsel_percentile
SELECT dpsel_percentile(v, 0.5, l, 10, 1) FROM (VALUES (1, 0), (2, 1.0)) t(v, l);

-- One row per person, given where one row per label was due: two rows with
-- one label would be taken as two candidates ('never' won where 'married'
-- holds half the rows); refused, without the label
CREATE TEMP TABLE people AS SELECT g % 3 AS region, CASE WHEN g % 10 < 5 THEN 'married'
    WHEN g % 10 < 8 THEN 'single' WHEN g % 10 < 9 THEN 'widowed' ELSE 'never' END AS status
    FROM generate_series(1, 3000) g;
SELECT region, dpsel_pf(status, 1, '1') FROM people GROUP BY region;
