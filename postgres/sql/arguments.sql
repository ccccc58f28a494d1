-- SPDX-License-Identifier: ISC
-- Bad public parameters: each an SQL error naming the argument and its
-- value, with the fix where there is one (epsilon malformed, zero,
-- negative, too small or NULL, as text, numeric and float8; sensitivities,
-- resolutions, mechanisms, quantiles and grids), and a selection as a
-- window function.
CREATE TEMP TABLE vals AS SELECT g::numeric AS v FROM generate_series(0, 10) g;

-- the selections: epsilon, sensitivity, resolution, monotonic, a window
SELECT dpsel_pf(l, s, 'abc') FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '0') FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1e-30') FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, NULL) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 0) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', NULL) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 0.3, false, 0.25) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 1, false, -0.5) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 1, false, 'NaN') FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 1, false, NULL) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', -0.5) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 0.00, true) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 'NaN'::numeric) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1', 1, NULL) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, '1') OVER () FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, 'NaN'::float8) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, 'Infinity'::float8) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, 0.000) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_pf(l, s, 1e-30::float8) FROM (VALUES ('a', 1)) v(l, s);

-- (dpsel_em: the same checks)
SELECT dpsel_em(l, s, '-1') FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_em(l, s, '') FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_em(l, s, '1', -3, false) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_em(l, s, 1, 0.25, true, 0.1) FROM (VALUES ('a', 1.5)) v(l, s);
SELECT dpsel_em(l, s, '1', 1, false, 0) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_em(l, s, '1', 1e-5::float8) FROM (VALUES ('a', 1)) v(l, s);
SELECT dpsel_em(l, s, -0.5::float8) FROM (VALUES ('a', 1)) v(l, s);

-- dpsel_mode: epsilon, candidates, mechanism
SELECT dpsel_mode(v, ARRAY['a'], 'abc') FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, ARRAY['a'], 'NaN'::numeric) FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, ARRAY['a'], NULL::numeric) FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, NULL, 1) FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, ARRAY[]::text[], 1) FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, ARRAY['a', 'b', 'b'], 1) FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, ARRAY['a', NULL], 1) FROM (VALUES ('a')) t(v);
SELECT dpsel_mode(v, ARRAY['a'], 1, 'xx') FROM (VALUES ('a')) t(v);

-- dpsel_quantile: quantile, grid, resolution, mechanism, epsilon
SELECT dpsel_quantile(v, '1.5', '0', '10', '1') FROM vals;
SELECT dpsel_quantile(v, '0', '0', '10', '1') FROM vals;
SELECT dpsel_quantile(v, 'half', '0', '10', '1') FROM vals;
SELECT dpsel_quantile(v, '0.0000000000000000001', '0', '10', '1') FROM vals;
SELECT dpsel_quantile(v, '0.5', '10', '0', '1') FROM vals;
SELECT dpsel_quantile(v, '0.5', '0', '1', '1', '0.3') FROM vals;
SELECT dpsel_quantile(v, '0.5', '0', '10', '1', '0') FROM vals;
SELECT dpsel_quantile(v, '0.5', '0', '10000000000000', '1') FROM vals;
SELECT dpsel_quantile(v, '0.5', '0', '10', '1', NULL, 'xx') FROM vals;
SELECT dpsel_quantile(v, '0.5', '0', '10', '1', NULL, NULL) FROM vals;
SELECT dpsel_quantile(v, '0.5', '0', '10', 'x') FROM vals;

-- dpsel_percentile: the same, its parameters numeric
SELECT dpsel_percentile(v, 1.5, 0, 10, 1) FROM vals;
SELECT dpsel_percentile(v, 0.5, 10, 0, 1) FROM vals;
SELECT dpsel_percentile(v, 0.5, 0, 1, 1, 0.3) FROM vals;
SELECT dpsel_percentile(v, 0.5, 0, 'NaN', 1) FROM vals;
SELECT dpsel_percentile(v, 0.5, 0, 10, 0) FROM vals;
SELECT dpsel_percentile(v, 0.5, 0, NULL, 1) FROM vals;
