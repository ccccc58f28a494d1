-- SPDX-License-Identifier: ISC
-- dpsel_pf and dpsel_em where the data fix the release: NULLs skipped, no
-- candidate or no rows give NULL, an empty and the longest label, a group
-- per key, and scores of any size clamped, never an error (at epsilon 100
-- another release has probability below 10^-40).

-- a NULL label or score skips the row; 'a' is the only candidate left
SELECT dpsel_pf(l, s, '1') FROM (VALUES (NULL, 100), ('a', 1), ('b', NULL)) v(l, s);
-- no candidate, no rows: NULL
SELECT dpsel_em(l, s, '1') IS NULL FROM (VALUES (NULL::text, 1::bigint)) v(l, s);
SELECT dpsel_pf(l, s, '1') IS NULL FROM (VALUES ('a', 1)) v(l, s) WHERE false;
-- an empty label, and the longest (65536 bytes)
SELECT '[' || dpsel_em(l, s, '1') || ']' FROM (VALUES ('', 1)) v(l, s);
SELECT length(dpsel_pf(repeat('y', 65536), 1, '1'));
-- a release per group
SELECT count(*) FROM (SELECT g % 5, dpsel_pf('c' || g, g, '1') FROM generate_series(1, 40) g
    GROUP BY 1) s;
-- Decimal scores are data too: NaN the largest, the infinities and long
-- values clamped (in units of 0.25: 'a' and 'b' hold the top score, 'c'
-- lies 2^64 units below, 'd' -1 unit, 'e' 0)
SELECT dpsel_pf(l, s, '100', 0.25, true, 0.25) IN ('a', 'b')
    FROM (VALUES ('a', 'NaN'::numeric), ('b', ('9' || repeat('0', 130000))::numeric),
                 ('c', '-Infinity'), ('d', -1e-1000), ('e', 0.2)) v(l, s);
-- numeric scores: -Infinity the least, Infinity the largest
SELECT dpsel_pf(l, s, '100', 1, true)
    FROM (VALUES ('a', '-Infinity'::numeric), ('b', 'Infinity'), ('c', 5)) v(l, s);
