/*
 * measure.c - the resource figures of a tree diff's kernels
 * (ptx_tree_measure): every file that holds a kernel that differs is
 * compiled, by ptxas on up to `jobs` processes at once, or by the CUDA
 * driver's JIT on this thread, and each kernel's figures read from the
 * cubin and the compiler's log (ptx_res_from).  Nothing is printed: what
 * goes wrong is the caller's message, or a kernel's figures' error.
 *
 * An allocation that fails sets `oom` and the work goes on, so that every
 * ptxas started is waited for and its files removed; the call then fails
 * as a whole (PTX_OUT_OF_MEMORY), rather than give a kernel an error it
 * does not have ("ptxas failed", "not in the compiled cubin").
 */
#define _GNU_SOURCE   /* mkstemps */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptx/diff.h"
#include "ptx/jit.h"
#include "util/alloc.h"
#include "util/diag.h"
#include "util/paths.h"

extern char **environ;   /* what ptxas runs with: the caller's */

/* One file's compilation. */
typedef struct build {
    int side, file;
    const ptx_tree_file *f;
    char arch[32];
    char *log;              /* the compiler's messages, NUL-terminated */
    void *cubin;
    size_t ncubin;
    char *error;            /* why it gave no cubin, or NULL */
    pid_t pid;
    char logname[64], cubinname[64];
} build;

/* The target of module text src (".target sm_90a, debug" -> sm_90a). */
static int target_of(const ptx_module *m, char *arch, size_t cap)
{
    const char *p = m->src, *e = m->src + m->size;
    while ((p = memmem(p, (size_t)(e - p), ".target", 7)) != NULL) {
        p += 7;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        size_t n = 0;
        while (p + n < e && (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
                             (p[n] >= '0' && p[n] <= '9')))
            n++;
        if (n && n < cap) {
            memcpy(arch, p, n);
            arch[n] = 0;
            return 0;
        }
    }
    return -1;
}

/* p, where it is not NULL; else *oom is set. */
static void *held(void *p, int *oom)
{
    *oom |= !p;
    return p;
}

/* The first line of log that says "error", else its first line. */
static char *error_line(const char *log, const char *fallback, int *oom)
{
    const char *p = log ? strstr(log, "error") : NULL;
    if (p)
        while (p > log && p[-1] != '\n')
            p--;
    else
        p = log && *log ? log : fallback;
    return held(ptx_strndup(p, strcspn(p, "\r\n")), oom);
}

/* The ptxas to run, into found[cap]: NULL where there is none. */
static const char *find_ptxas(const char *given, char *found, size_t cap)
{
    if (given)
        return access(given, X_OK) == 0 ? given : NULL;
    const char *env = getenv("PTXAS");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    const char *path = getenv("PATH");
    for (const char *p = path; p && *p; p += strcspn(p, ":") + (p[strcspn(p, ":")] != 0)) {
        int n = (int)strcspn(p, ":");
        snprintf(found, cap, "%.*s/ptxas", n, p);
        if (n && access(found, X_OK) == 0)
            return found;
    }
    return access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ? "/usr/local/cuda/bin/ptxas" : NULL;
}

static int temp_file(char *name, size_t cap, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    snprintf(name, cap, "%s/pyptx-diff-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
    return mkstemps(name, (int)strlen(suffix));
}

/* ptxas -arch=ARCH -v -o CUBIN FILE, its output into the log file, in a
   process of its own (posix_spawn: where ptxas cannot be run, the error
   comes back here, and no forked copy of the caller is left to end). */
static int start_ptxas(const char *ptxas, build *b)
{
    int lf = temp_file(b->logname, sizeof b->logname, ".log");
    int cf = temp_file(b->cubinname, sizeof b->cubinname, ".cubin");
    if (lf < 0 || cf < 0) {
        if (lf >= 0)
            close(lf), unlink(b->logname);
        if (cf >= 0)
            close(cf), unlink(b->cubinname);
        return -1;
    }
    close(cf);
    char arch[48];
    snprintf(arch, sizeof arch, "-arch=%s", b->arch);
    char *argv[] = { (char *)ptxas, arch, "-v", "-o", b->cubinname, (char *)b->f->path, NULL };
    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0) {
        if ((rc = posix_spawn_file_actions_adddup2(&fa, lf, 1)) == 0 &&
            (rc = posix_spawn_file_actions_adddup2(&fa, lf, 2)) == 0)
            rc = posix_spawn(&b->pid, ptxas, &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
    }
    close(lf);
    if (rc != 0) {
        b->pid = 0;
        unlink(b->logname);
        unlink(b->cubinname);
        errno = rc;
        return -1;
    }
    return 0;
}

/* (The two files exist: start_ptxas made them, so a read that gives
   nothing ran out of memory.) */
static void finish_ptxas(build *b, int status, int *oom)
{
    size_t n;
    b->log = held(paths_read(b->logname, &n), oom);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        b->cubin = held(paths_read(b->cubinname, &b->ncubin), oom);
    else
        b->error = error_line(b->log, "ptxas failed", oom);
    unlink(b->logname);
    unlink(b->cubinname);
}

static char *spawn_error(int err, int *oom)
{
    char msg[160];
    snprintf(msg, sizeof msg, "ptxas could not be run: %s", strerror(err));
    return held(ptx_strdup(msg), oom);
}

/* Every build on up to `jobs` ptxas processes at once: -1 where no ptxas
   is found. */
static int run_ptxas(const ptx_measure_options *o, build *v, size_t n, char *err, size_t errn,
                     int *oom)
{
    char found[4096];
    const char *ptxas = find_ptxas(o->ptxas, found, sizeof found);
    if (!ptxas) {
        snprintf(err, errn, "no ptxas to run: %s", o->ptxas ? o->ptxas
                 : getenv("PTXAS") && *getenv("PTXAS") ? getenv("PTXAS")
                 : "none on PATH or in /usr/local/cuda/bin (give one, or use the JIT)");
        return -1;
    }
    unsigned jobs = o->jobs ? o->jobs : 2, running = 0;
    for (size_t next = 0, done = 0; done < n;) {
        while (running < jobs && next < n) {
            build *b = &v[next++];
            if (!b->error && start_ptxas(ptxas, b) != 0)
                b->error = spawn_error(errno, oom);
            else if (!b->error)
                running++;
            else
                done++;
        }
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
            break;
        for (size_t k = 0; k < next; k++)
            if (v[k].pid == pid) {
                finish_ptxas(&v[k], status, oom);
                v[k].pid = 0;
                running--, done++;
            }
    }
    return 0;
}

static int run_jit(build *v, size_t n, ptx_diag *diag, int *oom)
{
    ptx_jit *j = ptx_jit_open(diag);
    if (!j)
        return -1;
    enum { LOG = 1 << 16 };
    for (size_t k = 0; k < n; k++) {
        build *b = &v[k];
        if (b->error || !(b->log = held(ptx_malloc(LOG), oom)))
            continue;
        int r = ptx_jit_compile(j, b->f->m->src, b->f->m->size, b->arch, &b->cubin,
                                &b->ncubin, b->log, LOG);
        if (r != 0)
            b->error = error_line(b->log, "the JIT failed", oom);
    }
    ptx_jit_close(j);
    return 0;
}

/* The files to compile: each side's file of every kernel that differs,
   once; idx[s][f] its build, or -1. */
static size_t plan(const ptx_tree_diff *t, int *idx[2], build *v, int *oom)
{
    size_t n = 0;
    for (size_t k = 0; k < ptx_tree_nkernels(t); k++) {
        const ptx_tree_kernel *e = ptx_tree_kernel_at(t, k);
        if (e->status == PTX_DIFF_SAME || e->module)
            continue;
        for (int s = 0; s < 2; s++) {
            int f = s ? e->fb : e->fa;
            if (f < 0 || idx[s][f] >= 0)
                continue;
            build *b = &v[n];
            memset(b, 0, sizeof *b);
            b->side = s, b->file = f, b->f = ptx_tree_file_at(t, s, f);
            if (target_of(b->f->m, b->arch, sizeof b->arch) != 0)
                b->error = held(ptx_strdup("no .target directive"), oom);
            idx[s][f] = (int)n++;
        }
    }
    return n;
}

static void fill(const ptx_tree_diff *t, int *idx[2], const build *v, ptx_res *res, int *oom)
{
    for (size_t k = 0; k < ptx_tree_nkernels(t); k++) {
        const ptx_tree_kernel *e = ptx_tree_kernel_at(t, k);
        for (int s = 0; s < 2; s++) {
            ptx_res *r = &res[2 * k + s];
            for (unsigned i = 0; i < PTX_RES_N; i++)
                r->v[i] = -1;
            int f = s ? e->fb : e->fa;
            if (f < 0 || idx[s][f] < 0 || e->module)
                continue;
            const build *b = &v[idx[s][f]];
            int got = b->error ? -1 : ptx_res_from(b->log, b->cubin, b->ncubin, e->name, r);
            *oom |= got == -2;
            if (got == -1)
                r->error = held(ptx_strdup(b->error ? b->error : "not in the compiled cubin"),
                                oom);
        }
    }
}

static size_t nfiles(const ptx_tree_diff *t, int s)
{
    size_t n = 0;
    while (ptx_tree_file_at(t, s, (int)n))
        n++;
    return n;
}

ptx_res *ptx_tree_measure(const ptx_tree_diff *t, const ptx_measure_options *o, ptx_diag *diag)
{
    size_t errn;
    char *err = ptx_diag_msgbuf(diag, &errn);
    size_t nf[2] = { nfiles(t, 0), nfiles(t, 1) }, nk = ptx_tree_nkernels(t);
    int *idx[2] = { ptx_malloc((nf[0] + 1) * sizeof(int)), ptx_malloc((nf[1] + 1) * sizeof(int)) };
    build *v = ptx_calloc(nf[0] + nf[1] + 1, sizeof *v);
    ptx_res *res = ptx_calloc(2 * nk + 1, sizeof *res);
    if (!idx[0] || !idx[1] || !v || !res) {
        snprintf(err, errn, PTX_OUT_OF_MEMORY);
        free(idx[0]), free(idx[1]), free(v), free(res);
        return NULL;
    }
    memset(idx[0], 0xff, (nf[0] + 1) * sizeof(int));
    memset(idx[1], 0xff, (nf[1] + 1) * sizeof(int));
    int oom = 0;
    size_t n = plan(t, idx, v, &oom);
    if ((o->jit ? run_jit(v, n, diag, &oom) : run_ptxas(o, v, n, err, errn, &oom)) == 0)
        fill(t, idx, v, res, &oom);
    else
        free(res), res = NULL;
    for (size_t k = 0; k < n; k++)
        free(v[k].log), free(v[k].cubin), free(v[k].error);
    free(v), free(idx[0]), free(idx[1]);
    if (oom && res) {
        ptx_res_free(res, nk);
        res = NULL;
        snprintf(err, errn, PTX_OUT_OF_MEMORY);
    }
    return res;
}

void ptx_res_free(ptx_res *res, size_t nkernels)
{
    for (size_t k = 0; res && k < 2 * nkernels; k++)
        free((char *)res[k].error);
    free(res);
}
