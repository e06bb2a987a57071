/*
 * bench_frontend - parse+emit throughput of the C front end (one thread, or
 * a module's parse on N: --threads).
 *
 *   bench_frontend [--mode exact|canonical|codegen|sugar|parse] [--pieces]
 *                  [--threads N] [--pass-times] [--seconds S | --repeat N] PATH...
 *
 * Loads every .ptx file under PATH into memory first (disk is not timed),
 * runs one untimed round (with --seconds), then repeats rounds over the
 * whole set until S seconds (default 2) have passed (or exactly N rounds:
 * --repeat, for callgrind), and prints one line: "bytes=N seconds=T
 * mbps=X".  A round parses each file and, by --mode, prints it exactly or
 * canonically, generates Python (codegen: plain; sugar: every sugar pass),
 * or nothing (parse: to split a mode's time into its stages).
 * --threads N: each module parsed on up to N threads (ptx_parse_buffer_jobs);
 * --pieces: a file of two pieces or more taken a piece at a time, as the
 * programs take it (exact and canonical as `pyptx-roundtrip --emit`,
 * codegen as `pyptx-codegen`: ptx_pieces_roundtrip, ptx_codegen_pieces);
 * --pass-times: with sugar, each pass's time per round, on stderr.
 * tools/bench.py runs it beside the reference implementation.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ptx/codegen.h"
#include "ptx/ptx.h"
#include "emit/emit.h"
#include "cli/common/walk.h"
#include "util/paths.h"
#include "util/memory.h"
#include "util/threads.h"

typedef struct input {
    char *name, *data;
    size_t n;
} input;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load(const char *path, input *in)
{
    in->data = paths_read(path, &in->n);
    in->name = strdup(path);
    return in->data ? 0 : -1;
}

typedef struct bench {
    const input *in;
    size_t n;
    unsigned threads;
    int codegen, parse_only, canonical;
    uint32_t sugar;
    ptx_codegen_stats *stats;
    int pieces;
} bench;

/* File i printed (exact or canonical) or translated (plain or sugar) a
   piece at a time, as the programs do: 1, or 0 where it is taken whole. */
static int in_pieces(const bench *b, size_t i, ptx_buf *out)
{
    size_t piece = b->codegen ? PTX_CODEGEN_PIECE : PTX_PIECE;
    const input *f = &b->in[i];
    if (!b->pieces || b->parse_only || f->n / 2 < piece)
        return 0;
    out->n = 0;
    if (b->codegen) {
        ptx_codegen_options o = { .sugar = b->sugar, .stats = b->stats, .jobs = b->threads };
        return ptx_codegen_pieces(f->name, f->data, f->n, piece, &o, out);
    }
    ptx_pieces_opts po = { piece, b->threads,
                           b->canonical ? PTX_PIECES_PRINT_CANONICAL : 0, out, NULL, NULL };
    return ptx_pieces_roundtrip(f->name, f->data, f->n, &po);
}

/* Parse and print every file once: 0, or 1 after a diagnostic. */
static int one_round(const bench *b, ptx_buf *out)
{
    for (size_t i = 0; i < b->n; i++) {
        if (in_pieces(b, i, out))
            continue;
        ptx_diag d;
        ptx_module *m = ptx_parse_buffer_jobs(b->in[i].name, b->in[i].data, b->in[i].n,
                                              b->threads, &d);
        if (!m) {
            ptx_diag_print(stderr, &d);
            return 1;
        }
        out->n = 0;
        if (b->codegen) {
            ptx_codegen_options o = { .sugar = b->sugar, .stats = b->stats,
                                      .jobs = b->pieces ? b->threads : 0 };
            if (ptx_codegen(m, &o, out, &d) != 0) {
                fprintf(stderr, "%s: %s\n", b->in[i].name, d.msg);
                return 1;
            }
        } else if (b->parse_only)
            out->n = m->size; /* nothing printed */
        else if (b->canonical)
            ptx_emit_canonical(m, out);
        else
            ptx_emit_exact(m, out);
        ptx_module_free(m);
    }
    return 0;
}

int main(int argc, char **argv)
{
    ptx_keep_freed_memory();
    int canonical = 0, codegen = 0, parse_only = 0;
    uint32_t sugar = 0;
    double seconds = 2.0;
    long repeat = 0; /* --repeat N: exactly N passes (for callgrind) */
    unsigned threads = 1;
    int pass_times = 0, pieces = 0;
    ptx_codegen_stats st = { 0 };
    long rounds = 0;
    path_list files = { 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mode") && i + 1 < argc)
        {
            i++;
            canonical = !strcmp(argv[i], "canonical");
            codegen = !strcmp(argv[i], "codegen") || !strcmp(argv[i], "sugar");
            sugar = strcmp(argv[i], "sugar") ? 0
                    : (uint32_t)((1ull << ptx_codegen_npasses()) - 1);
            parse_only = !strcmp(argv[i], "parse");
        }
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atol(argv[++i]);
        else if (!strcmp(argv[i], "--pass-times"))
            pass_times = 1;
        else if (!strcmp(argv[i], "--pieces"))
            pieces = 1;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (paths_add(&files, argv[i]) != 0)
            return 2;
    }
    paths_sort(&files);
    input *in = calloc(files.n + 1, sizeof *in);
    size_t total = 0;
    for (size_t i = 0; i < files.n; i++) {
        if (load(files.v[i], &in[i]) != 0)
            return 2;
        total += in[i].n;
    }
    ptx_buf out = { 0 };
    size_t bytes = 0;
    /* --seconds: one untimed round first, so that every mode is timed in
       the steady state (the memory a round uses faulted in, caches warm);
       otherwise a slow mode, fewer rounds to the second, would carry more
       of that first cost than a fast one */
    bench b = { in, files.n, threads, codegen, parse_only, canonical, sugar,
                pass_times ? &st : NULL, pieces };
    if (!repeat) {
        if (one_round(&b, &out) != 0)
            return 1;
        memset(&st, 0, sizeof st);
    }
    double t0 = now(), t;
    do {
        if (one_round(&b, &out) != 0)
            return 1;
        bytes += total;
        rounds++;
        t = now() - t0;
    } while (repeat ? --repeat > 0 : t < seconds);
    printf("files=%zu bytes=%zu seconds=%.3f mbps=%.1f\n", files.n, bytes, t,
           bytes / t / 1e6);
    for (unsigned i = 0; pass_times && i < ptx_codegen_npasses(); i++)
        fprintf(stderr, "%-10s %8.1f ms\n", ptx_codegen_pass_name(i),
                st.pass_ns[i] / 1e6 / (double)rounds);
    ptx_buf_free(&out);
    return 0;
}
