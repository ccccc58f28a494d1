/* SPDX-License-Identifier: ISC */
/* The progress line (progress.h).  Integers only: the fraction in
 * millionths, the times in milliseconds. */
#include "progress.h"

#include <inttypes.h>
#include <time.h>
#include <unistd.h>

#define MILLION 1000000u
#define TERMINAL_DELAY_MS 1000u  /* a terminal shows work that lasts */
#define REWRITE_MS 100u          /* at most ten lines a second */

static uint64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

void cli_progress_start(cli_progress *p, const char *what, int forced, uint64_t steps)
{
    *p = (cli_progress){ .out = stderr, .what = what, .forced = forced,
                         .terminal = isatty(fileno(stderr)), .start_ms = now_ms(),
                         .steps = steps > 0 ? steps : 1 };
}

void cli_progress_cost(const cli_progress *p, const char *text)
{
    if (p->forced || p->terminal) {
        fprintf(p->out, "dpsel %s: %s\n", p->what, text);
        fflush(p->out);
    }
}

/* done / total in millionths, rounded down (both shifted right together
 * until total is below 2^40, so that done x 10^6 fits in 64 bits). */
static uint64_t millionths(uint64_t done, uint64_t total)
{
    while (total >= (uint64_t)1 << 40) {
        done >>= 1;
        total >>= 1;
    }
    return total > 0 ? done * MILLION / total : 0;
}

/* "12 s", "3 min 20 s", "2 h 05 min" */
static void duration_text(uint64_t seconds, char *buf, size_t size)
{
    if (seconds < 60) {
        snprintf(buf, size, "%" PRIu64 " s", seconds);
    } else if (seconds < 3600) {
        snprintf(buf, size, "%" PRIu64 " min %02" PRIu64 " s", seconds / 60, seconds % 60);
    } else {
        snprintf(buf, size, "%" PRIu64 " h %02" PRIu64 " min", seconds / 3600,
                 seconds / 60 % 60);
    }
}

/* Rewrites the line: "dpsel pmf: 42.1% done, about 12 s left". */
static void write_line(cli_progress *p, uint64_t elapsed_ms, int final)
{
    char left[32] = "";
    if (final) {
        duration_text(elapsed_ms / 1000u, left, sizeof left);
    } else if (p->ppm > 0) {  /* the time so far, scaled to what is left */
        uint64_t remaining_ms = elapsed_ms * (MILLION - p->ppm) / p->ppm;  /* < 2^60 */
        duration_text((remaining_ms + 999u) / 1000u, left, sizeof left);
    }
    char line[160];
    int length = snprintf(line, sizeof line, "dpsel %s: %" PRIu64 ".%" PRIu64 "%% done%s%s%s",
                          p->what, p->ppm / 10000u, p->ppm / 1000u % 10u,
                          final ? " in " : p->ppm > 0 ? ", about " : "", left,
                          final || p->ppm == 0 ? "" : " left");
    size_t width = length > 0 ? (size_t)length : 0;
    /* spaces over the rest of a longer line before */
    fprintf(p->out, "\r%s%*s", line, p->width > width ? (int)(p->width - width) : 0, "");
    fflush(p->out);
    p->width = width;
}

/* Writes the line if it is shown at all and not written in the last
 * REWRITE_MS (the first line and the final one always). */
static void show(cli_progress *p, int final)
{
    uint64_t now = now_ms();
    uint64_t elapsed = now - p->start_ms;
    int shown = p->forced || (p->terminal && elapsed >= TERMINAL_DELAY_MS);
    int due = p->shown_ms == 0 || now - p->shown_ms >= REWRITE_MS;
    if (shown && (final || (due && p->ppm < MILLION))) {  /* 100% only as the final line */
        write_line(p, elapsed, final);
        p->shown_ms = now;
    }
}

void cli_progress_step(cli_progress *p, uint64_t step)
{
    p->step = step;
    p->ppm = millionths(step, p->steps);
    show(p, 0);
}

int cli_progress_report(void *context, uint64_t done, uint64_t total)
{
    cli_progress *p = context;
    /* (step + done / total) / steps, never below what was shown */
    uint64_t within = millionths(done, total) / p->steps;
    uint64_t ppm = millionths(p->step, p->steps) + within;
    p->ppm = ppm > p->ppm ? (ppm < MILLION ? ppm : MILLION) : p->ppm;
    show(p, 0);
    return 0;
}

void cli_progress_clear(cli_progress *p)
{
    if (p->terminal && p->width > 0) {
        fprintf(p->out, "\r%*s\r", (int)p->width, "");
        fflush(p->out);
        p->width = 0;
        p->shown_ms = 0;  /* written again at the next report */
    }
}

void cli_progress_stop(cli_progress *p, int done)
{
    if (done) {
        p->ppm = MILLION;
        show(p, 1);
    }
    if (p->shown_ms != 0) {
        fputc('\n', p->out);
        fflush(p->out);
    }
}
