/*
 * pyptx-codegen - PTX to Python for the pyptx 0.1.1 DSL.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "cli/common/protect.h"
#include "ptx/codegen.h"
#include "ptx/ptx.h"
#include "cli/verify/verify.h"
#include "util/alloc.h"
#include "util/paths.h"
#include "util/memory.h"
#include "util/threads.h"

static const char usage[] =
    "usage: pyptx-codegen [options] FILE.ptx      (FILE '-' reads standard input)\n"
    "\n"
    "Writes a Python file for pyptx 0.1.1: one @kernel per .entry, KERNELS,\n"
    "UNSUPPORTED and module_ptx() (--sugar: only what the module needs);\n"
    "`python OUT.py` prints the PTX module.\n"
    "\n"
    "  -o OUT.py          write OUT.py (atomically) instead of standard output\n"
    "  --name NAME        rename the kernel (the file must hold exactly one .entry)\n"
    "  --sugar[=a,b]      run all (or the named) sugar passes\n"
    "  --no-sugar=a,b     do not run the named passes\n"
    "  --rename-kernels   sugar may also rename kernels\n"
    "  --no-debug         drop .loc, .file, @@DWARF, .section .debug_* and the labels\n"
    "                     only they use (what pyptx-diff --ignore-debug ignores)\n"
    "  --jobs N           use N threads (default 1) to parse the file and build\n"
    "                     its kernels, and, without sugar, to print them\n"
    "  --verify           trace the output with pyptx 0.1.1 and check that every\n"
    "                     kernel gives back its PTX; drop sugar passes from a\n"
    "                     kernel that does not, saying which and why\n"
    "  --python PY        the Python --verify runs (default: $PYPTX_PYTHON, python3)\n"
    "  --stats            print counts to standard error\n"
    "  --list-passes      list the sugar passes and exit\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 written, 1 the input does not parse or cannot be\n"
    "generated (with --verify: not even plain mode traces back), 2 usage\n"
    "error or the output cannot be written, 3 --verify found no Python with\n"
    "pyptx 0.1.1 to run.\n";

enum { OPT_NAME = 256, OPT_SUGAR, OPT_NO_SUGAR, OPT_RENAME, OPT_STATS,
       OPT_LIST, OPT_HELP, OPT_VERSION, OPT_JOBS, OPT_VERIFY, OPT_PYTHON,
       OPT_NO_DEBUG };

/* What the command line asks for. */
typedef struct cli {
    ptx_codegen_options o;
    const char *out;         /* -o, or NULL */
    const char *python;      /* --python, or NULL */
    int want_stats, verify;
    int no_debug;            /* --no-debug */
} cli;

/* Set (on=1) or clear the bits of a comma list of pass names. */
static int pass_list(const char *list, uint32_t *mask, int on)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        uint32_t bit = ptx_codegen_pass_bit(t);
        if (!bit) {
            fprintf(stderr, "pyptx-codegen: unknown sugar pass '%s' "
                            "(see --list-passes)\n", t);
            return -1;
        }
        *mask = on ? *mask | bit : *mask & ~bit;
    }
    return 0;
}

static void list_passes(void)
{
    for (unsigned i = 0; i < ptx_codegen_npasses(); i++)
        printf("%-10s %s\n", ptx_codegen_pass_name(i), ptx_codegen_pass_help(i));
}

static size_t count_lines(const ptx_buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += b->p[i] == '\n';
    return n;
}

/* --stats: what the sugar bought, as lines of Python.  The tree is
   read-only, so generating the plain text again from it is safe. */
static void print_line_counts(const ptx_module *m, const ptx_codegen_options *o,
                              const ptx_buf *py)
{
    ptx_codegen_options plain = *o;
    plain.sugar = 0;
    plain.stats = NULL;
    ptx_buf b = { 0 };
    ptx_diag d;
    if (ptx_codegen(m, &plain, &b, &d) == 0)
        fprintf(stderr, "lines: %zu plain -> %zu with these passes\n",
                count_lines(&b), count_lines(py));
    ptx_buf_free(&b);
}

static void print_stats(const ptx_codegen_stats *st)
{
    fprintf(stderr, "kernels=%u unsupported=%u insts=%u raw=%u decls=%u\n",
            st->kernels, st->unsupported, st->insts, st->raw_stmts, st->decls);
    for (unsigned i = 0; i < ptx_codegen_npasses(); i++)
        fprintf(stderr, "pass %s: %u (%.1f ms)\n", ptx_codegen_pass_name(i),
                st->pass_applied[i], st->pass_ns[i] / 1e6);
}

/* Write atomically: temp file in the same directory, then rename. */
static int write_out(const char *path, const ptx_buf *b)
{
    if (!path || !strcmp(path, "-"))
        return fwrite(b->p, 1, b->n, stdout) == b->n && fflush(stdout) == 0 ? 0 : -1;
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "pyptx-codegen: %s: %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(b->p, 1, b->n, f) == b->n;
    ok = (f && fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "pyptx-codegen: %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}

/* Python for a file of two pieces or more, translated a piece at a time
   (ptx_codegen_pieces) into *py: 1, or 0 when the whole module must be
   taken (--name, a small file, standard input, a piece that does not
   parse, which the whole parse then reports, or with sugar a piece whose
   names the whole module would have answered otherwise). */
static int in_pieces(const char *path, const ptx_codegen_options *o, ptx_buf *py)
{
    size_t piece = PTX_CODEGEN_PIECE;
    paths_mapped f = { NULL, 0, (size_t)sysconf(_SC_PAGESIZE) };
    if (o->name || !(f.p = paths_read_large(path, 2 * piece, o->jobs, &f.n)))
        return 0;
    ptx_codegen_options po = *o;    /* the kernels' text, once printed, given back */
    po.release = paths_give_back;
    po.release_ctx = &f;
    int ok = ptx_codegen_pieces(path, f.p, f.n, piece, &po, py);
    munmap(f.p, f.n);
    return ok;
}

/* The command line into *c: -1 to go on, else the exit status (after
   --help, --version, --list-passes or a usage error). */
static int parse_options(int argc, char **argv, cli *c)
{
    static const struct option longs[] = {
        { "name", required_argument, 0, OPT_NAME },
        { "sugar", optional_argument, 0, OPT_SUGAR },
        { "no-sugar", required_argument, 0, OPT_NO_SUGAR },
        { "rename-kernels", no_argument, 0, OPT_RENAME },
        { "stats", no_argument, 0, OPT_STATS },
        { "verify", no_argument, 0, OPT_VERIFY },
        { "no-debug", no_argument, 0, OPT_NO_DEBUG },
        { "python", required_argument, 0, OPT_PYTHON },
        { "jobs", required_argument, 0, OPT_JOBS },
        { "list-passes", no_argument, 0, OPT_LIST },
        { "help", no_argument, 0, OPT_HELP },
        { "version", no_argument, 0, OPT_VERSION },
        { 0, 0, 0, 0 },
    };
    ptx_codegen_options *o = &c->o;
    uint32_t off = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "o:h", longs, NULL)) != -1) {
        switch (opt) {
        case 'o': c->out = optarg; break;
        case OPT_NAME: o->name = optarg; break;
        case OPT_SUGAR:
            if (!optarg)
                o->sugar = (uint32_t)((1ull << ptx_codegen_npasses()) - 1);
            else if (pass_list(optarg, &o->sugar, 1))
                return 2;
            break;
        case OPT_NO_SUGAR:
            if (pass_list(optarg, &off, 1))
                return 2;
            break;
        case OPT_RENAME: o->rename_kernels = 1; break;
        case OPT_STATS: c->want_stats = 1; break;
        case OPT_VERIFY: c->verify = 1; break;
        case OPT_NO_DEBUG: c->no_debug = 1; break;
        case OPT_PYTHON: c->python = optarg; break;
        case OPT_JOBS:
            if (ptx_jobs_arg(optarg, &o->jobs) != 0) {
                fprintf(stderr, "pyptx-codegen: error: --jobs wants 1..256\n");
                return 2;
            }
            break;
        case OPT_LIST: list_passes(); return 0;
        case 'h': case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_VERSION: printf("pyptx-codegen %s\n", PTX_VERSION_STRING); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fputs(usage, stderr);
        return 2;
    }
    o->sugar &= ~off;
    return -1;
}

/* --no-debug: the file's text without its debug data (ptx_emit_nodebug)
   into *text, which is then translated as any file's text: 0, or 1 with
   the diagnostic printed.  The filter needs the whole module's tree (a
   label goes where nothing in its function names it), which is freed
   before the translation starts. */
static int strip_debug(const char *path, unsigned jobs, ptx_buf *text)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_file_jobs(path, jobs, &d);
    if (!m) {
        ptx_diag_print(stderr, &d);
        return 1;
    }
    if (ptx_emit_nodebug(m, text))
        ptx_oom();   /* (cli_main says so) */
    ptx_module_free(m);
    return 0;
}

/* The module to translate: the file, or with --no-debug its filtered
   text (which parses, as the filter keeps whole statements). */
static ptx_module *parse_input(const char *path, const ptx_buf *text,
                               const cli *c, ptx_diag *d)
{
    if (!c->no_debug)
        return ptx_parse_file_jobs(path, c->o.jobs, d);
    return ptx_parse_buffer_jobs(path, text->p ? text->p : "", text->n, c->o.jobs, d);
}

/* The Python for the file in *py: 0, else the exit status, the error
   printed.  *m is the module parsed (NULL when taken in pieces).  With
   --no-debug, the filtered text is what is translated, in pieces where
   the file would be, and what --verify checks against. */
static int generate(cli *c, const char *path, ptx_module **m, ptx_buf *py)
{
    ptx_buf text = { 0 };
    int rc = c->no_debug ? strip_debug(path, c->o.jobs, &text) : 0;
    if (rc == 0 && !c->want_stats && !c->verify
        && (c->no_debug ? ptx_codegen_pieces(path, text.p, text.n, 0, &c->o, py)
                        : in_pieces(path, &c->o, py))) {
        ptx_buf_free(&text);
        return 0;
    }
    ptx_diag d;
    if (rc == 0 && !(*m = parse_input(path, &text, c, &d))) {
        ptx_diag_print(stderr, &d);
        rc = 1;
    }
    ptx_buf_free(&text);
    if (rc != 0)
        return rc;
    if (ptx_codegen(*m, &c->o, py, &d) != 0) {
        fprintf(stderr, "pyptx-codegen: %s: error: %s\n", path, d.msg);
        return 1;
    }
    return c->verify ? verify_codegen(*m, &c->o, c->python, path, py) : 0;
}

static int run(int argc, char **argv)
{
    ptx_keep_freed_memory();
    cli c = { .o = { 0 } };
    ptx_codegen_stats st = { 0 };
    int exit_now = parse_options(argc, argv, &c);
    if (exit_now >= 0)
        return exit_now;
    c.o.stats = c.want_stats ? &st : NULL;
    c.o.srcname = argv[optind];
    ptx_buf py = { 0 };
    ptx_module *m = NULL;
    int rc = generate(&c, argv[optind], &m, &py);
    if (rc == 0 && write_out(c.out, &py) != 0)
        rc = 2;
    else if (rc == 0 && c.want_stats) {
        print_stats(&st);
        print_line_counts(m, &c.o, &py);
    }
    ptx_buf_free(&py);
    ptx_module_free(m);
    return rc;
}

int main(int argc, char **argv)
{
    return cli_main("pyptx-codegen", run, argc, argv);
}
