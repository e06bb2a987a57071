/* threads.c - one call of a function per item, each on a thread of its own. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/alloc.h"
#include "util/buf.h"
#include "util/threads.h"

typedef struct call {
    void (*fn)(void *item);
    void *item;
    int unwound;
} call;

/* Each call under a scope of its own: memory running out in one must not
   jump across threads, nor past the joins. */
static void *start(void *arg)
{
    call *c = arg;
    c->unwound |= ptx_protect(c->fn, c->item) != 0;
    return NULL;
}

unsigned ptx_each_thread(void *items, unsigned n, size_t size, void (*fn)(void *item))
{
    pthread_t t[PTX_MAX_THREADS];
    call c[PTX_MAX_THREADS];
    int started[PTX_MAX_THREADS] = { 0 };
    unsigned nt = n < PTX_MAX_THREADS ? n : PTX_MAX_THREADS, unwound = 0;
    for (unsigned i = 1; i < nt; i++) {
        c[i] = (call){ fn, (char *)items + i * size, 0 };
        started[i] = pthread_create(&t[i], NULL, start, &c[i]) == 0;
    }
    for (unsigned i = 0; i < n; i++)
        if (i >= nt || !started[i]) {
            call here = { fn, (char *)items + i * size, 0 };
            start(&here);
            unwound += here.unwound;
        }
    for (unsigned i = 1; i < nt; i++)
        if (started[i]) {
            pthread_join(t[i], NULL);
            unwound += c[i].unwound;
        }
    return unwound;
}

/* Bytes [from, to) of a file (fd) or of memory (src, when fd < 0) into
   p + from. */
typedef struct span {
    int fd;
    const char *src;
    char *p;
    size_t from, to;
    int ok;
} span;

static void fill_span(void *arg)
{
    span *s = arg;
    if (s->fd < 0) {
        memcpy(s->p + s->from, s->src + s->from, s->to - s->from);
        s->ok = 1;
        return;
    }
    size_t at = s->from;
    ssize_t r = 1;
    while (at < s->to && (r = pread(s->fd, s->p + at, s->to - at, (off_t)at)) > 0)
        at += (size_t)r;
    s->ok = at == s->to;
}

/* Fills p's n bytes from fd or src in parts of at least PTX_MIN_PART on
   up to `jobs` threads: 1 if every part was filled. */
static int fill(int fd, const char *src, char *p, size_t n, unsigned jobs)
{
    span v[PTX_MAX_THREADS];
    unsigned k = ptx_parts(n, jobs, PTX_MIN_PART);
    k = k ? k : 1;
    /* parts begin on a page, so that no two threads fault in the same one
       (where p starts on one) */
    for (unsigned i = 0; i < k; i++)
        v[i] = (span){ fd, src, p, (n / k * i) & ~(size_t)4095,
                       i + 1 == k ? n : (n / k * (i + 1)) & ~(size_t)4095, 0 };
    ptx_each_thread(v, k, sizeof *v, fill_span);
    int ok = 1;
    for (unsigned i = 0; i < k; i++)
        ok &= v[i].ok;
    return ok;
}

int ptx_read_threads(int fd, char *p, size_t n, unsigned jobs)
{
    char c;
    return fill(fd, NULL, p, n, jobs) && pread(fd, &c, 1, (off_t)n) == 0;
}

void ptx_copy_threads(char *p, const char *src, size_t n, unsigned jobs)
{
    fill(-1, src, p, n, jobs);
}

unsigned ptx_parts(size_t size, unsigned jobs, size_t min_part)
{
    size_t most = size / (min_part ? min_part : 1);
    unsigned want = jobs < PTX_MAX_THREADS ? jobs : PTX_MAX_THREADS;
    return most < want ? (unsigned)most : want;
}

ptx_cut ptx_cut_start(size_t total, unsigned parts)
{
    size_t per = total / (parts ? parts : 1);
    return (ptx_cut){ per, per, 1, parts ? parts : 1 };
}

int ptx_cut_here(ptx_cut *c, size_t offset)
{
    if (c->runs == c->most || offset < c->next)
        return 0;
    c->runs++;
    c->next = offset + c->per;
    return 1;
}

int ptx_jobs_arg(const char *text, unsigned *jobs)
{
    char *end;
    long j = strtol(text, &end, 10);
    if (end == text || *end || j < 1 || j > PTX_MAX_THREADS)
        return -1;
    *jobs = (unsigned)j;
    return 0;
}

typedef struct printed {
    void (*fn)(void *part, ptx_buf *text);
    void *part;
    ptx_buf text;
    char *dest;     /* where text goes in the output (the second round) */
} printed;

static void print_or_copy(void *arg)
{
    printed *p = arg;
    if (p->dest) {
        if (p->text.n)   /* (a part that printed nothing has no buffer) */
            memcpy(p->dest, p->text.p, p->text.n);
        ptx_buf_free(&p->text);
    } else {
        p->fn(p->part, &p->text);
    }
}

/* Unwinding: the parts' buffers, then the array (v ends where a part's
   fn is NULL, as calloc left the slot past the last). */
static void free_printed(void *arg)
{
    printed *v = arg;
    for (printed *p = v; p->fn; p++)
        ptx_buf_free(&p->text);
    free(v);
}

void ptx_print_each_thread(void *parts, unsigned n, size_t size,
                           void (*fn)(void *part, ptx_buf *text), ptx_buf *out)
{
    printed *v = ptx_calloc(n + 1, sizeof *v);
    if (!v) {   /* one part after another, straight into out */
        for (unsigned i = 0; i < n; i++)
            fn((char *)parts + i * size, out);
        return;
    }
    ptx_owned own;
    ptx_own(&own, free_printed, v);
    for (unsigned i = 0; i < n; i++)
        v[i] = (printed){ fn, (char *)parts + i * size, { 0 }, NULL };
    if (ptx_each_thread(v, n, sizeof *v, print_or_copy))
        ptx_oom();
    size_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += v[i].text.n;
    if (!total) {   /* nothing printed: nothing to copy, no buffer to free */
        ptx_disown(&own);
        free(v);
        return;
    }
    ptx_buf_reserve(out, total);
    char *at = out->p + out->n;
    for (unsigned i = 0; i < n; i++) {
        v[i].dest = at;
        at += v[i].text.n;
    }
    out->n += total;
    ptx_each_thread(v, n, sizeof *v, print_or_copy);   /* (copies: no allocation) */
    ptx_disown(&own);
    free(v);
}
