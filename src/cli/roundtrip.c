/*
 * pyptx-roundtrip - verify that PTX files survive parse + emit unchanged.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/common/protect.h"
#include "cli/exit.h"
#include "emit/emit.h"
#include "ptx/jitverify.h"
#include "ptx/ptx.h"
#include "cli/common/walk.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/paths.h"
#include "util/threads.h"
#include "util/json.h"
#include "util/memory.h"

typedef struct opts {
    int canonical, json, jobs, emit;
    unsigned file_jobs;    /* threads for one file's parse and printing:
                              the jobs that fewer files leave over */
    ptx_jit *jit;      /* --jit: the driver, opened once */
    const char *arch;  /* --arch, or NULL for the device's own */
} opts;

typedef struct result {
    int ok;
    int verdict;    /* ptx_jit_verdict with --jit, else -1 */
    ptx_buf report; /* why it failed, human-readable */
} result;

typedef struct job {
    const opts *o;
    path_list *files;
    result *results;
    size_t *order;     /* file indices, largest first (NULL: path order) */
    atomic_size_t next, done;
} job;

static const char usage[] =
    "usage: pyptx-roundtrip [options] PATH...\n"
    "       pyptx-roundtrip --emit [--canonical] FILE\n"
    "\n"
    "Parses every .ptx file under the given files and directories, prints it\n"
    "back from the syntax tree and checks that the bytes are unchanged.\n"
    "\n"
    "  --canonical  also check the canonical printer: same tokens as the input,\n"
    "               and printing its own output again gives the same text\n"
    "  --emit       print the re-emitted (or, with --canonical, canonical) text\n"
    "               of FILE to standard output\n"
    "  --jit        also JIT the original and the re-emitted (and, with\n"
    "               --canonical, the canonical) text with the CUDA driver and\n"
    "               compare the cubins' code sections\n"
    "  --arch sm_XX JIT target (default: the GPU present)\n"
    "  --jobs N     use N threads (default 1): N files at a time, and the\n"
    "               threads that fewer files leave over to parse each file\n"
    "               in pieces\n"
    "  --json       print a machine-readable report instead of text\n"
    "  --help       show this help;  --version  show the version\n"
    "\n"
    "Exit status: 0 all files pass, 1 some file fails, 2 usage error,\n"
    "77 --jit without a usable CUDA driver or GPU (nothing was checked).\n";

/* Line and column (1-based) of byte `off`, and the line's extent. */
static void locate(const char *s, size_t n, size_t off, size_t *line,
                   size_t *col, size_t *lb, size_t *le)
{
    size_t l = 1, b = 0;
    for (size_t i = 0; i < off && i < n; i++)
        if (s[i] == '\n') {
            l++;
            b = i + 1;
        }
    size_t e = b;
    while (e < n && s[e] != '\n')
        e++;
    *line = l;
    *col = off - b + 1;
    *lb = b;
    *le = e;
}

static void show_line(ptx_buf *r, const char *what, const char *s, size_t n,
                      size_t off)
{
    size_t line, col, b, e;
    locate(s, n, off, &line, &col, &b, &e);
    if (e - b > 200)
        e = b + 200;
    ptx_buf_printf(r, "  %s %zu:%zu: ", what, line, col);
    ptx_buf_put(r, s + b, e - b);
    ptx_buf_putc(r, '\n');
}

/* Reports the first difference between the input and an emitted text. */
static void report_diff(ptx_buf *r, const char *path, const char *label,
                        const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0;
    while (i < na && i < nb && a[i] == b[i])
        i++;
    ptx_buf_printf(r, "%s: %s differs at byte %zu\n", path, label, i);
    show_line(r, "original", a, na, i);
    show_line(r, "emitted ", b, nb, i);
}

/* On success leaves the canonical text in *c1 (the caller frees it).  The
   canonical text is parsed first, and its tokens compared with the input's
   in the two trees; only a text that does not parse is lexed apart, to say
   whether its tokens differ. */
static int check_canonical(const ptx_module *m, unsigned jobs, result *res,
                           ptx_buf *c1_out)
{
    ptx_buf c1 = { 0 }, c2 = { 0 };
    ptx_diag d, dl;
    size_t at_a = 0, at_b = 0;
    int ok = 0;
    if (ptx_emit_jobs(m, 1, jobs, &c1))
        ptx_oom();
    ptx_module *m2 = ptx_parse_buffer_jobs(m->filename, c1.p, c1.n, jobs, &d);
    int same = m2 ? ptx_same_module_tokens_jobs(m, m2, jobs, &at_a, &at_b)
                  : ptx_same_tokens(m->src, m->size, c1.p, c1.n, &at_a, &at_b, &dl);
    if (same != 1) {
        ptx_buf_printf(&res->report, "%s: canonical text has other tokens\n",
                       m->filename);
        show_line(&res->report, "original ", m->src, m->size, at_a);
        show_line(&res->report, "canonical", c1.p, c1.n, at_b);
        goto out;
    }
    if (!m2) {
        ptx_buf_printf(&res->report, "%s: canonical text does not parse: %u:%u: %s\n",
                       m->filename, d.line, d.col, d.msg);
        goto out;
    }
    if (ptx_emit_jobs(m2, 1, jobs, &c2))
        ptx_oom();
    if (c1.n != c2.n || (c1.n && memcmp(c1.p, c2.p, c1.n) != 0)) {
        report_diff(&res->report, m->filename, "canonical text is not a fixed point;",
                    c1.p, c1.n, c2.p, c2.n);
        goto out;
    }
    ok = 1;
    *c1_out = c1;
    c1 = (ptx_buf){ 0 };
out:
    ptx_module_free(m2);
    ptx_buf_free(&c1);
    ptx_buf_free(&c2);
    return ok;
}

static void check_jit(const ptx_module *m, const opts *o, const ptx_buf *out,
                      const ptx_buf *canon, result *res)
{
    ptx_jit_text texts[2] = { { "re-emitted text", out->p, out->n },
                              { "canonical text", canon->p, canon->n } };
    res->verdict = (int)ptx_jit_verify(o->jit, o->arch, m->filename, m->src,
                                       m->size, texts, o->canonical ? 2 : 1, 0,
                                       &res->report);
    res->ok = res->verdict == PTX_JIT_IDENTICAL || res->verdict == PTX_JIT_REJECTED;
}

/* The file's round trip in pieces (with `out`, its text printed into it):
   1 when every piece passed, 0 when the whole module must be taken (a
   small file, standard input, a piece that failed).  The input held is
   only what is left to do. */
static int in_pieces(const char *path, const opts *o, unsigned flags,
                     ptx_buf *out)
{
    size_t piece = PTX_PIECE;
    paths_mapped f = { NULL, 0, (size_t)sysconf(_SC_PAGESIZE) };
    if (!(f.p = paths_read_large(path, 2 * piece, o->file_jobs, &f.n)))
        return 0;
    /* the text printed is about the input's size (exactly, when it
       passes): room for it at once, where a buffer grown by doubling
       would hold its old copy too */
    if (out)
        ptx_buf_reserve(out, f.n + f.n / 8);
    ptx_pieces_opts po = { piece, o->file_jobs, flags, out, paths_give_back, &f };
    int ok = ptx_pieces_roundtrip(path, f.p, f.n, &po);
    munmap(f.p, f.n);
    return ok;
}

static void check_file(const char *path, const opts *o, result *res)
{
    unsigned flags = PTX_PIECES_EXACT | (o->canonical ? PTX_PIECES_CANONICAL : 0);
    if (!o->jit && in_pieces(path, o, flags, NULL)) {  /* --jit: whole texts */
        res->ok = 1;
        return;
    }
    ptx_diag d;
    ptx_module *m = ptx_parse_file_jobs(path, o->file_jobs, &d);
    if (!m) {
        if (d.line) /* 0: no position (cannot open, too big) */
            ptx_buf_printf(&res->report, "%s:%u:%u: error: %s\n", d.file,
                           d.line, d.col, d.msg);
        else
            ptx_buf_printf(&res->report, "%s: error: %s\n", d.file, d.msg);
        return;
    }
    ptx_buf out = { 0 }, canon = { 0 };
    if (ptx_emit_jobs(m, 0, o->file_jobs, &out))
        ptx_oom();
    if (out.n != m->size || (out.n && memcmp(out.p, m->src, out.n) != 0))
        report_diff(&res->report, path, "re-emitted text", m->src, m->size,
                    out.p, out.n);
    else
        res->ok = !o->canonical || check_canonical(m, o->file_jobs, res, &canon);
    if (res->ok && o->jit)
        check_jit(m, o, &out, &canon, res);
    ptx_buf_free(&out);
    ptx_buf_free(&canon);
    ptx_module_free(m);
}

/* check_file under ptx_protect, on a worker of its own */
typedef struct check_call {
    const char *path;
    const opts *o;
    result *res;
} check_call;

static void check_one(void *ud)
{
    check_call *c = ud;
    check_file(c->path, c->o, c->res);
}

static void progress(job *j, size_t done)
{
    fprintf(stderr, "\r[%zu/%zu] verifying...", done, j->files->n);
    if (done == j->files->n)
        fputs("\r\033[K", stderr);
}

static void *worker(void *arg)
{
    job *j = arg;
    int tty = !j->o->json && isatty(2) && j->files->n > 20;
    for (;;) {
        size_t at = atomic_fetch_add(&j->next, 1);
        if (at >= j->files->n)
            break;
        size_t i = j->order ? j->order[at] : at;
        check_call c = { j->files->v[i], j->o, &j->results[i] };
        if (ptx_protect(check_one, &c) != 0) {   /* memory ran out: this file fails */
            result *r = &j->results[i];
            r->ok = 0;
            r->report.n = 0;
            (ptx_buf_printf)(&r->report, "%s: error: " PTX_OUT_OF_MEMORY "\n", c.path);
        }
        size_t done = atomic_fetch_add(&j->done, 1) + 1;
        if (tty && (done % 16 == 0 || done == j->files->n))
            progress(j, done);
    }
    return NULL;
}

typedef struct sized {
    off_t size;
    size_t i;
} sized;

static int larger_first(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? 1 : -1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The order the workers take the files in: largest first.  Time is about
   proportional to size, and a library's modules range from kilobytes to
   tens of megabytes; taken in path order, the largest may start last and
   keep one thread busy after the others have finished.  Results stay in
   path order (results[i]), so the output does not change.  NULL (path
   order) when memory is short. */
static size_t *largest_first(const path_list *files)
{
    sized *v = calloc(files->n ? files->n : 1, sizeof *v);
    size_t *order = calloc(files->n ? files->n : 1, sizeof *order);
    if (!v || !order) {
        free(v);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < files->n; i++) {
        struct stat st;
        v[i].size = stat(files->v[i], &st) == 0 ? st.st_size : 0;
        v[i].i = i;
    }
    qsort(v, files->n, sizeof *v, larger_first);
    for (size_t i = 0; i < files->n; i++)
        order[i] = v[i].i;
    free(v);
    return order;
}

static void run_jobs(job *j)
{
    int n = (size_t)j->o->jobs < j->files->n ? j->o->jobs : (int)j->files->n;
    if (n <= 1) {
        worker(j);
        return;
    }
    pthread_t *t = calloc((size_t)n, sizeof *t);
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, j);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    free(t);
}

static void print_json(const path_list *files, const result *res,
                       size_t passed, size_t failed)
{
    ptx_buf b = { 0 };
    ptx_buf_puts(&b, "{\"files\": [");
    for (size_t i = 0; i < files->n; i++) {
        ptx_buf_puts(&b, i ? ",\n  {\"path\": " : "\n  {\"path\": ");
        json_string(&b, files->v[i]);
        ptx_buf_printf(&b, ", \"ok\": %s", res[i].ok ? "true" : "false");
        static const char *const names[] = { "identical", "different", "rejected",
                                             "driver-error" };
        if (res[i].verdict >= 0)
            ptx_buf_printf(&b, ", \"jit\": \"%s\"", names[res[i].verdict]);
        if (res[i].report.n) {
            ptx_buf_puts(&b, ", \"error\": ");
            json_string_n(&b, res[i].report.p, res[i].report.n);
        }
        ptx_buf_putc(&b, '}');
    }
    ptx_buf_printf(&b, "\n], \"passed\": %zu, \"failed\": %zu}\n", passed, failed);
    fwrite(b.p, 1, b.n, stdout);
    ptx_buf_free(&b);
}

static int verify(path_list *files, const opts *o)
{
    result *res = calloc(files->n ? files->n : 1, sizeof *res);
    for (size_t i = 0; i < files->n; i++)
        res[i].verdict = -1;
    job j = { o, files, res, o->jobs > 1 ? largest_first(files) : NULL, 0, 0 };
    run_jobs(&j);
    free(j.order);
    size_t passed = 0, failed = 0, verdicts[4] = { 0 };
    for (size_t i = 0; i < files->n; i++) {
        if (res[i].ok)
            passed++;
        else
            failed++;
        if (res[i].verdict >= 0)
            verdicts[res[i].verdict]++;
    }
    if (o->json) {
        print_json(files, res, passed, failed);
    } else {
        for (size_t i = 0; i < files->n; i++)
            if (res[i].report.n)  /* failures, and the driver's log for rejects */
                fwrite(res[i].report.p, 1, res[i].report.n, stdout);
        if (o->jit)
            printf("jit: %zu identical, %zu different, %zu rejected by the driver, "
                   "%zu driver errors\n", verdicts[PTX_JIT_IDENTICAL],
                   verdicts[PTX_JIT_DIFFERENT], verdicts[PTX_JIT_REJECTED],
                   verdicts[PTX_JIT_ERROR]);
        printf("%zu passed, %zu failed\n", passed, failed);
    }
    for (size_t i = 0; i < files->n; i++)
        ptx_buf_free(&res[i].report);
    free(res);
    return failed ? 1 : 0;
}

static int emit(const char *path, const opts *o)
{
    ptx_buf out = { 0 };
    ptx_module *m = NULL;
    if (!in_pieces(path, o, o->canonical ? PTX_PIECES_PRINT_CANONICAL : 0, &out)) {
        ptx_diag d;
        if (!(m = ptx_parse_file_jobs(path, o->file_jobs, &d))) {
            ptx_diag_print(stderr, &d);
            ptx_buf_free(&out);     /* what pieces before a failing one printed */
            return 1;
        }
        if (ptx_emit_jobs(m, o->canonical, o->file_jobs, &out))
            ptx_oom();
    }
    /* (out.p is NULL for an empty module: fwrite's pointer must not be) */
    int rc = (out.n == 0 || fwrite(out.p, 1, out.n, stdout) == out.n) &&
             fflush(stdout) == 0 ? 0 : 1;
    if (rc)
        fprintf(stderr, "pyptx-roundtrip: error: cannot write standard output\n");
    ptx_buf_free(&out);
    ptx_module_free(m);
    return rc;
}

static int run(int argc, char **argv)
{
    ptx_keep_freed_memory();
    static const struct option longs[] = {
        { "canonical", no_argument, 0, 'c' }, { "emit", no_argument, 0, 'e' },
        { "jobs", required_argument, 0, 'j' }, { "json", no_argument, 0, 'J' },
        { "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' },
        { "jit", no_argument, 0, 'G' }, { "arch", required_argument, 0, 'A' },
        { 0, 0, 0, 0 }
    };
    opts o = { .jobs = 1, .file_jobs = 1 };
    int jit = 0;
    int c;
    while ((c = getopt_long(argc, argv, "cej:h", longs, NULL)) != -1) {
        switch (c) {
        case 'c': o.canonical = 1; break;
        case 'e': o.emit = 1; break;
        case 'j':
            o.jobs = atoi(optarg);
            if (o.jobs < 1 || o.jobs > 256) {
                fprintf(stderr, "pyptx-roundtrip: error: --jobs wants 1..256\n");
                return 2;
            }
            break;
        case 'J': o.json = 1; break;
        case 'G': jit = 1; break;
        case 'A': o.arch = optarg; break;
        case 'h': fputs(usage, stdout); return 0;
        case 'V': printf("pyptx-roundtrip %s\n", PTX_VERSION_STRING); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (optind >= argc) {
        fputs(usage, stderr);
        return 2;
    }
    if (o.emit) {
        if (argc - optind != 1) {
            fprintf(stderr, "pyptx-roundtrip: error: --emit takes exactly one FILE\n");
            return 2;
        }
        o.file_jobs = (unsigned)o.jobs;
        return emit(argv[optind], &o);
    }
    if (jit) {
        ptx_diag err;
        if (!(o.jit = ptx_jit_open(&err))) {
            printf("pyptx-roundtrip: skipped: %s\n", err.msg);
            return PTX_EXIT_SKIP;
        }
    }
    path_list files = { 0 };
    int bad = 0;
    for (int i = optind; i < argc; i++)
        bad |= paths_add(&files, argv[i]);
    paths_sort(&files);
    if (files.n && (size_t)o.jobs > files.n)
        o.file_jobs = (unsigned)((size_t)o.jobs / files.n);
    int rc = verify(&files, &o);
    paths_free(&files);
    if (o.jit)
        ptx_jit_close(o.jit);
    return bad ? 1 : rc;
}

int main(int argc, char **argv)
{
    return cli_main("pyptx-roundtrip", run, argc, argv);
}
