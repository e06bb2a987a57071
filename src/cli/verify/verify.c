/*
 * cli/verify/verify.c - pyptx-codegen --verify: runs the checker
 * (python/pyptx_c/_verify.py, serve()) and answers its requests for
 * candidate files.  The protocol, lines both ways, is described there.
 */
#define _GNU_SOURCE     /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/verify/verify.h"
#include "verify_py.h"      /* verify_py: the checker's text (build tree) */

extern char **environ;

typedef struct worker {
    const char *python, *file;
    const ptx_module *m;
    const ptx_codegen_options *o;
    pid_t pid;
    FILE *to, *from;         /* the worker's standard input and output */
    ptx_buf last;            /* the last candidate sent: "done" means it */
    uint32_t *masks;         /* the masks of a request */
    size_t cap;
} worker;

static int no_pyptx(const worker *w, const char *why)
{
    fprintf(stderr, "pyptx-codegen: error: --verify needs pyptx 0.1.1: %s: %s\n",
            w->python, why);
    return VERIFY_EXIT_NO_PYPTX;
}

/* argv of `python -c CHECKER serve PASSES SUGAR RENAMED`: the pass names
   into names[], the mask into sugar[]. */
static void worker_args(const worker *w, char *names, size_t n, char sugar[16])
{
    size_t at = 0;
    names[0] = 0;
    for (unsigned i = 0; i < ptx_codegen_npasses() && at < n; i++)
        at += (size_t)snprintf(names + at, n - at, "%s%s", i ? "," : "",
                               ptx_codegen_pass_name(i));
    snprintf(sugar, 16, "%u", (unsigned)w->o->sugar);
}

/* Start the worker on two pipes (close-on-exec here, its 0 and 1 there):
   0, or an errno (posix_spawnp says when the interpreter is missing). */
static int start(worker *w)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC))
        return errno;
    if (pipe2(out, O_CLOEXEC)) {
        int e = errno;
        close(in[0]);
        close(in[1]);
        return e;
    }
    char names[PTX_CODEGEN_MAX_PASSES * 24], sugar[16];
    worker_args(w, names, sizeof names, sugar);
    char *renamed = w->o->name || w->o->rename_kernels ? "1" : "0";
    char *argv[] = { (char *)w->python, "-c", (char *)verify_py, "serve",
                     names, sugar, renamed, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    int rc = posix_spawnp(&w->pid, w->python, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        return rc;
    }
    w->to = fdopen(in[1], "wb");
    w->from = fdopen(out[0], "rb");
    return 0;
}

/* A byte count line and the bytes (a failed write: the worker has gone,
   which its output's end then says). */
static void send_block(worker *w, const char *p, size_t n)
{
    fprintf(w->to, "%zu\n", n);
    fwrite(p, 1, n, w->to);
    fflush(w->to);
}

/* "gen plain" or "gen M0 M1 ...": that candidate, generated and sent. */
static int on_gen(worker *w, const char *args, ptx_buf *py)
{
    ptx_codegen_options o = *w->o;
    o.stats = NULL;
    if (!strcmp(args, "plain")) {
        o.sugar = 0;
    } else {
        size_t n = 0;
        for (char *end; *args; args = end, n++) {
            unsigned long v = strtoul(args, &end, 10);
            if (end == args)
                break;
            if (n == w->cap)
                w->masks = realloc(w->masks, (w->cap = 2 * w->cap + 8) * sizeof *w->masks);
            w->masks[n] = (uint32_t)v;
        }
        o.kernel_sugar = w->masks;
        o.nkernel_sugar = n;
    }
    ptx_diag d;
    w->last.n = 0;
    if (ptx_codegen(w->m, &o, &w->last, &d) != 0) {
        fputs("-1\n", w->to);
        fflush(w->to);
    } else {
        send_block(w, w->last.p, w->last.n);
    }
    return -1;
}

static int on_note(worker *w, const char *text, ptx_buf *py)
{
    fprintf(stderr, "pyptx-codegen: %s: %s\n", w->file, text);
    return -1;
}

static int on_done(worker *w, const char *unused, ptx_buf *py)
{
    ptx_buf_free(py);
    *py = w->last;
    w->last = (ptx_buf){ 0 };
    return 0;
}

static int on_fail(worker *w, const char *why, ptx_buf *py)
{
    fprintf(stderr, "pyptx-codegen: %s: error: --verify: %s\n", w->file, why);
    return 1;
}

static int on_nopyptx(worker *w, const char *why, ptx_buf *py)
{
    return no_pyptx(w, why);
}

static const struct {
    const char *word;
    int (*answer)(worker *w, const char *rest, ptx_buf *py); /* -1: go on */
} requests[] = {
    { "gen", on_gen }, { "note", on_note }, { "done", on_done },
    { "fail", on_fail }, { "nopyptx", on_nopyptx },
};

/* Send the PTX, then answer requests until a verdict: its exit status,
   or -1 when the worker's output ended without one. */
static int converse(worker *w, ptx_buf *py)
{
    send_block(w, w->m->src, w->m->size);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = -1;
    while (rc < 0 && (n = getline(&line, &cap, w->from)) > 0) {
        line[n - (line[n - 1] == '\n')] = 0;
        size_t k = strcspn(line, " ");
        const char *rest = line + k + (line[k] == ' ');
        unsigned i = 0;
        while (i < sizeof requests / sizeof *requests &&
               (strlen(requests[i].word) != k || strncmp(line, requests[i].word, k)))
            i++;
        if (i == sizeof requests / sizeof *requests) {
            fprintf(stderr, "pyptx-codegen: error: --verify: the checker said '%s'\n", line);
            rc = VERIFY_EXIT_NO_PYPTX;
        } else {
            rc = requests[i].answer(w, rest, py);
        }
    }
    free(line);
    return rc;
}

/* Close the pipes (the worker sees its input end and exits) and wait:
   rc, or, where the worker gave no verdict, why. */
static int finish(worker *w, int rc)
{
    fclose(w->to);
    fclose(w->from);
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (rc >= 0)
        return rc;
    char why[96];
    if (WIFEXITED(status))
        snprintf(why, sizeof why, "the checker exited with status %d before a verdict",
                 WEXITSTATUS(status));
    else
        snprintf(why, sizeof why, "the checker was killed by signal %d",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return no_pyptx(w, why);
}

int verify_codegen(const ptx_module *m, const ptx_codegen_options *o,
                   const char *python, const char *file, ptx_buf *py)
{
    const char *env = getenv("PYPTX_PYTHON");
    worker w = { .python = python ? python : env && *env ? env : "python3",
                 .file = file, .m = m, .o = o };
    /* a worker that dies leaves a pipe with no reader: an error to see,
       not a signal that ends this program */
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    sigaction(SIGPIPE, &ign, &old);
    int e = start(&w), rc;
    if (e)
        rc = no_pyptx(&w, strerror(e));
    else
        rc = finish(&w, converse(&w, py));
    sigaction(SIGPIPE, &old, NULL);
    ptx_buf_free(&w.last);
    free(w.masks);
    return rc;
}
