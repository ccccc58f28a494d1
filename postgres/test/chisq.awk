# SPDX-License-Identifier: ISC
# Chi-square goodness of fit of released outputs to their exact pmf, as
# tests/support.c computes it: cells in the pmf's order merged until each
# expects at least 5 draws (a short tail joins the last full cell), and the
# critical value the upper 1e-6 quantile of chi-square (exact for 1 and 2
# degrees of freedom, Wilson-Hilferty above): a false alarm has probability
# at most 1e-6.
#   awk -f chisq.awk PMF COUNTS
# PMF: `key<TAB>probability` per output, in order, where a key `A..B` (a run
# of a quantile's grid) stands for every number from A to B; COUNTS:
# `output<TAB>count`.  Prints the statistic; exits 0 when the fit passes, 1
# otherwise (also for an output the pmf does not list).
BEGIN { FS = "\t" }
NR == FNR { keys[++k] = $1; p[$1] = $2; next }
{
    key = $1
    for (i = 1; i <= k && !(key in p); i++)
        if (split(keys[i], run, /\.\./) == 2 && key + 0 >= run[1] + 0 && key + 0 <= run[2] + 0)
            key = keys[i]
    if (!(key in p)) {
        printf "released %s, which the pmf does not list\n", $1
        bad = 1
    }
    observed[key] += $2
    draws += $2
}
END {
    if (bad || k == 0) exit 1
    cells = 0
    open = 0
    for (i = 1; i <= k; i++) {
        if (!open) { cells++; e[cells] = 0; o[cells] = 0; open = 1 }
        e[cells] += p[keys[i]] * draws
        o[cells] += observed[keys[i]]
        if (e[cells] >= 5) open = 0
    }
    if (open && cells > 1) { e[cells - 1] += e[cells]; o[cells - 1] += o[cells]; cells-- }
    stat = 0
    for (c = 1; c <= cells; c++) stat += (o[c] - e[c]) ^ 2 / e[c]
    dof = cells - 1
    z = 4.753424    # upper 1e-6 quantile of the standard normal
    if (dof == 1) critical = 23.9281
    else if (dof == 2) critical = -2 * log(1e-6)
    else { a = 2 / (9 * dof); critical = dof * (1 - a + z * sqrt(a)) ^ 3 }
    printf "chi-square %.2f with %d degrees of freedom (critical %.2f), %d draws\n", stat, dof, critical, draws
    exit (dof == 0 || stat < critical) ? 0 : 1
}
