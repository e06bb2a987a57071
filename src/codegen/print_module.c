/*
 * print_module.c - the generated file around the kernels (DESIGN.md 1, 2):
 * imports, kernels with their @kernel arguments, KERNELS, UNSUPPORTED,
 * _MODULE (carried text and kernels) and module_ptx().  Plain output
 * prints all of them, the same in every file; readable output (the layer
 * above's) only what its code and its module need.
 */
#include <string.h>
#include "codegen/build.h"
#include "codegen/pystr.h"

/* The layer above asks for kernels as a person writes them. */
static int readable(const cg_module *m)
{
    return m->layer && m->layer->readable;
}

/* A directive value: a Python int as it is, anything else as a string. */
static void put_value(ptx_buf *out, const char *s, int is_int)
{
    if (is_int)
        ptx_buf_puts(out, s);
    else
        py_str_cstr(out, s);
}

/* ---- the head ---------------------------------------------------------- */

/* The names the head may import or define, then cg_types from bit
   NHEAD_NAMES on: a bit each in cg_uses, set where the code names them. */
static const char *const head_names[] = {
    "kernel", "reg", "ptx", "smem", "Reg", "RegArray", "PipeRef", "sys",
    "_raw", "_named", "_dyn_smem", "_dyn_smem_addr", "_slot_addr",
};
enum { NHEAD_NAMES = sizeof head_names / sizeof head_names[0] };

static const char *head_name(unsigned i)
{
    return i < NHEAD_NAMES ? head_names[i] : cg_types[i - NHEAD_NAMES];
}

int cg_uses_name(const cg_uses *u, const char *name)
{
    if (!u)   /* the plain head: no code was looked at */
        return 1;
    for (unsigned i = 0; i < NHEAD_NAMES + cg_ntypes; i++)
        if (strcmp(head_name(i), name) == 0)
            return (int)(u->bits >> i & 1);
    return 0;
}

/* What a byte of the printed Python starts, for the head's scan: a word
   ([A-Za-z_][A-Za-z0-9_]*), a number, an attribute (after a '.'), a
   comment or a string literal; or nothing. */
enum { B_NONE, B_WORD, B_DIGIT, B_DOT, B_HASH, B_QUOTE, B_SPACE };
#define RANGE(lo, hi, c) [lo ... hi] = c
static const unsigned char byte_class[256] = {
    RANGE('a', 'z', B_WORD), RANGE('A', 'Z', B_WORD), ['_'] = B_WORD,
    RANGE('0', '9', B_DIGIT), ['.'] = B_DOT, ['#'] = B_HASH, ['"'] = B_QUOTE, ['\''] = B_QUOTE,
    [' '] = B_SPACE,
};
#undef RANGE

/* The end of the run of spaces at p: eight at a time (a third of the
   kernels' Python is indentation). */
static const char *skip_spaces(const char *p, const char *e)
{
    uint64_t eight;
    while (e - p >= 8 && (memcpy(&eight, p, 8), eight == 0x2020202020202020ull))
        p += 8;
    while (p < e && *p == ' ')
        p++;
    return p;
}

/* The end of the word (letters, digits, '_') at p. */
static const char *skip_word(const char *p, const char *e)
{
    while (p < e && (unsigned)(byte_class[(unsigned char)*p] - B_WORD) <= B_DIGIT - B_WORD)
        p++;
    return p;
}

/* The end of the string literal at p (the generated code writes one-line
   "..." and '...' literals, with backslash escapes). */
static const char *skip_literal(const char *p, const char *e)
{
    char q = *p++;
    while (p < e && *p != q && *p != '\n')
        p += *p == '\\' && p + 1 < e ? 2 : 1;
    return p < e ? p + 1 : e;
}

/* The head's names by first byte and by length (a bit of cg_uses each):
   a word is compared only with the names of both its first byte and its
   length, mostly none (the scan reads every word of the kernels' code,
   and comparing each with all 36 names was a tenth of --sugar's time). */
typedef struct name_index {
    uint64_t by_first[128];
    uint64_t by_len[16];
} name_index;

static void index_names(name_index *x)
{
    memset(x, 0, sizeof *x);
    for (unsigned i = 0; i < NHEAD_NAMES + cg_ntypes && i < 64; i++) {
        const char *name = head_name(i);
        size_t n = strlen(name);
        x->by_first[(unsigned char)name[0] & 127] |= 1ull << i;
        if (n < 16)
            x->by_len[n] |= 1ull << i;
    }
}

/* The bits of u for the word w[0..n) (a letter or '_' first), but those
   of `found`. */
static uint64_t word_bits(const name_index *x, const char *w, size_t n, uint64_t found)
{
    if (n >= 16)
        return 0;
    uint64_t bits = 0;
    for (uint64_t c = x->by_first[(unsigned char)w[0]] & x->by_len[n] & ~found; c; c &= c - 1) {
        unsigned i = (unsigned)__builtin_ctzll(c);
        if (!memcmp(w, head_name(i), n))
            bits |= 1ull << i;
    }
    return bits;
}

/* Adds to u the head's names that the Python `code` uses: words outside
   literals and comments, not attributes (after a '.') and not numbers.
   Only code that names a helper or an import gets it, so the head is
   what the file needs and no more.  A name already found is not looked
   for again. */
static void scan_uses(const char *p, size_t n, cg_uses *u)
{
    if (!n)
        return;   /* (an empty buffer's p is NULL) */
    const char *e = p + n, *w;
    name_index x;
    index_names(&x);
    while (p < e) {
        switch (byte_class[(unsigned char)*p]) {
        case B_NONE:
            p++;
            break;
        case B_SPACE:
            p = skip_spaces(p, e);
            break;
        case B_DOT:     /* an attribute: the word after the dot */
            p = skip_word(p + 1, e);
            break;
        case B_DIGIT:
            p = skip_word(p, e);
            break;
        case B_WORD:
            w = p;
            p = skip_word(p, e);
            u->bits |= word_bits(&x, w, (size_t)(p - w), u->bits);
            break;
        case B_HASH:
            w = memchr(p, '\n', (size_t)(e - p));
            p = w ? w : e;
            break;
        default:
            p = skip_literal(p, e);
        }
    }
}

static void put_types(const cg_uses *u, uint32_t types, ptx_buf *out)
{
    const char *sep = "from pyptx.types import ";
    for (unsigned i = 0; i < cg_ntypes; i++)
        if (u ? u->bits >> (NHEAD_NAMES + i) & 1 : types >> i & 1) {
            ptx_buf_puts(out, sep);
            ptx_buf_puts(out, cg_types[i]);
            sep = ", ";
        }
    if (*sep == ',')
        ptx_buf_putc(out, '\n');
}

static void file_comment(const cg_module *m, ptx_buf *out)
{
    ptx_buf_puts(out, "# Generated by pyptx-codegen from ");
    const char *n = m->srcname ? m->srcname : "-";
    const char *slash = strrchr(n, '/');
    py_escape_cstr(out, slash ? slash + 1 : n);
    ptx_buf_puts(out, " for pyptx 0.1.1.\n");
}

static const char raw_def[] =
    "def _raw(text):\n"
    "    \"\"\"Emit PTX text verbatim into the kernel being traced: for what\n"
    "    the DSL has no construct for (each call says why).\"\"\"\n"
    "    ptx.inst._raw_emit(text)\n";

/* Plain mode's head is printed before the kernels, and the same in every
   file: the whole contract (DESIGN.md 1). */
static void plain_head(const cg_module *m, ptx_buf *out)
{
    file_comment(m, out);
    ptx_buf_puts(out, "# `python THIS.py` prints the PTX module: module_ptx().\n"
                 "import sys\n"
                 "from pyptx import kernel, reg, ptx");
    if (m->layer)
        m->layer->head_imports(m, NULL, out);
    ptx_buf_putc(out, '\n');
    ptx_buf_puts(out, "from pyptx.reg import Reg, RegArray, PipeRef\n");
    put_types(NULL, m->types_used, out);
    ptx_buf_puts(out, "\n\n");
    ptx_buf_puts(out, raw_def);
    if (m->layer)
        m->layer->head_defs(m, NULL, out);
}

static int tail_writes_bytes(const cg_module *m);

/* `from MOD import ...` of the names of `names` that u has, then those
   of `more` (", a, b" or empty); nothing where there are none. */
static void put_import(const cg_uses *u, const char *mod, const char *const *names,
                       const ptx_buf *more, ptx_buf *out)
{
    ptx_buf list = { 0 };
    for (; *names; names++)
        if (cg_uses_name(u, *names)) {
            ptx_buf_puts(&list, ", ");
            ptx_buf_puts(&list, *names);
        }
    if (more)
        ptx_buf_put(&list, more->p, more->n);
    if (list.n) {
        ptx_buf_puts(out, "from ");
        ptx_buf_puts(out, mod);
        ptx_buf_puts(out, " import ");
        ptx_buf_put(out, list.p + 2, list.n - 2);
        ptx_buf_putc(out, '\n');
    }
    ptx_buf_free(&list);
}

/* Readable output imports and defines what its code names: the kernels
   (`code`, printed before the head), the helpers they call, and the
   __main__ block of the tail. */
static void readable_head(const cg_module *m, const char *code, size_t n, ptx_buf *out)
{
    cg_uses u = { 0 };
    scan_uses(code, n, &u);
    ptx_buf defs = { 0 }, more = { 0 };
    if (cg_uses_name(&u, "_raw")) {
        ptx_buf_putc(&defs, '\n');
        ptx_buf_puts(&defs, raw_def);
    }
    m->layer->head_defs(m, &u, &defs);
    if (cg_uses_name(&u, "_named"))
        ptx_buf_puts(&defs,
            "\ndef _named(name, **args):  # @kernel(**args), traced as the PTX entry `name`\n"
            "    return lambda fn: kernel(**args)(setattr(fn, \"__name__\", name) or fn)\n");
    scan_uses(defs.p, defs.n, &u);
    m->layer->head_imports(m, &u, &more);
    if (tail_writes_bytes(m))
        ptx_buf_puts(out, "import sys\n");
    static const char *const pyptx[] = { "kernel", "reg", "ptx", NULL };
    static const char *const regs[] = { "Reg", "RegArray", "PipeRef", NULL };
    put_import(&u, "pyptx", pyptx, &more, out);
    put_import(&u, "pyptx.reg", regs, NULL, out);
    put_types(&u, 0, out);
    ptx_buf_put(out, defs.p, defs.n);
    ptx_buf_free(&defs);
    ptx_buf_free(&more);
}

void cg_print_head(const cg_module *m, const char *code, size_t n, ptx_buf *out)
{
    if (code && readable(m))
        readable_head(m, code, n, out);
    else
        plain_head(m, out);
}

/* The punctuation of the @kernel(...) arguments: one per line, or all on
   one line (readable mode, when it fits). */
typedef struct layout {
    const char *open, *arg_sep, *close;     /* around and between arguments */
    const char *lopen, *item, *lclose;      /* around and before list items */
} layout;

static const layout tall = { "(\n    ", ",\n    ", ",\n)", "[\n        ",
                             ",\n        ", ",\n    ]" };
/* BREAK marks where a filled line may break (no PTX name holds it) */
#define BREAK "\001"
static const layout flat = { "(", "," BREAK, ")", "[", "," BREAK, "]" };

static void param_item(const cg_kernel *k, const cg_param *p, ptx_buf *out)
{
    ptx_buf_putc(out, '(');
    py_str_cstr(out, p->typestr);
    ptx_buf_puts(out, ", \"");
    py_escape_cstr(out, p->pre);
    const char *s = k->syms[p->sym].ptx;
    py_escape_cstr(out, s);
    py_escape_cstr(out, p->rest);
    ptx_buf_puts(out, "\")");
}

static void dir_item(const cg_dir *d, ptx_buf *out)
{
    ptx_buf_putc(out, '(');
    py_str_cstr(out, d->name);
    ptx_buf_puts(out, ", (");
    for (uint32_t i = 0; i < d->nvals; i++) {
        put_value(out, d->vals[i], d->is_int[i]);
        ptx_buf_puts(out, d->nvals == 1 ? "," : i + 1 < d->nvals ? ", " : "");
    }
    ptx_buf_puts(out, "))");
}

/* `entry`: the PTX entry name as _named's first argument, or NULL */
static void kernel_args_as(const cg_module *m, const cg_kernel *k,
                           const layout *l, const char *entry, ptx_buf *out)
{
    ptx_buf_puts(out, l->open);
    if (entry) {
        py_str_cstr(out, entry);
        ptx_buf_puts(out, l->arg_sep);
    }
    ptx_buf_puts(out, "arch=");
    py_str_cstr(out, m->arch);
    ptx_buf_puts(out, l->arg_sep);
    ptx_buf_puts(out, "version=(");
    put_value(out, m->vmajor, m->version_ints);
    ptx_buf_puts(out, ", ");
    put_value(out, m->vminor, m->version_ints);
    ptx_buf_putc(out, ')');
    if (k->params) {
        ptx_buf_puts(out, l->arg_sep);
        ptx_buf_puts(out, "raw_params=");
        ptx_buf_puts(out, l->lopen);
        for (const cg_param *p = k->params; p; p = p->next) {
            param_item(k, p, out);
            if (p->next)
                ptx_buf_puts(out, l->item);
        }
        ptx_buf_puts(out, l->lclose);
    }
    if (k->dirs) {
        ptx_buf_puts(out, l->arg_sep);
        ptx_buf_puts(out, "raw_directives=");
        ptx_buf_puts(out, l->lopen);
        for (const cg_dir *d = k->dirs; d; d = d->next) {
            dir_item(d, out);
            if (d->next)
                ptx_buf_puts(out, l->item);
        }
        ptx_buf_puts(out, l->lclose);
    }
    ptx_buf_puts(out, l->close);
}

/* Sugar output is for reading: the arguments fill lines of at most
   MAX_FLAT columns (one line when they fit), breaking after a comma, the
   next line indented by four; plain output keeps one per line, as
   DESIGN.md describes. */
static void kernel_args(const cg_module *m, const cg_kernel *k,
                        const char *entry, ptx_buf *out)
{
    enum { MAX_FLAT = 150 }; /* about what the reference transpiler writes */
    if (!readable(m)) {
        kernel_args_as(m, k, &tall, entry, out);
        return;
    }
    ptx_buf one = { 0 };
    kernel_args_as(m, k, &flat, entry, &one);
    size_t col = 8;          /* "@kernel" / "@_named" */
    for (size_t i = 0; i < one.n;) {
        const char *e = memchr(one.p + i, BREAK[0], one.n - i);
        size_t n = e ? (size_t)(e - one.p) - i : one.n - i;
        if (i && col + 1 + n > MAX_FLAT) {
            ptx_buf_puts(out, "\n    ");
            col = 4;
        } else if (i) {
            ptx_buf_putc(out, ' ');
            col++;
        }
        ptx_buf_put(out, one.p + i, n);
        col += n;
        i += n + (e != NULL);
    }
    ptx_buf_free(&one);
}

static void note(const char *text, ptx_buf *out)
{
    ptx_buf_puts(out, "# Comments in the PTX entry header (pyptx writes the "
                      "header itself, so they are kept here only):\n");
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        ptx_buf_puts(out, "#   ");
        ptx_buf_put(out, p, n);
        ptx_buf_putc(out, '\n');
        p += n + (e != NULL);
    }
}

/* A kernel whose Python name is not its PTX name (a mangled C++ name, a
   Python keyword) is traced under the PTX name.  Sugar output says so with
   one decorator, @_named("_Z...", ...); plain output sets __name__ and
   calls kernel(...) after the def, as DESIGN.md describes. */
void cg_print_kernel_head(const cg_module *m, const cg_kernel *k, ptx_buf *out)
{
    ptx_buf_puts(out, readable(m) ? "\n" : "\n\n");   /* pyptx's codegen: one */
    if (k->note)
        note(k->note, out);
    if (k->decorated || readable(m)) {
        ptx_buf_puts(out, k->decorated ? "@kernel" : "@_named");
        kernel_args(m, k, k->decorated ? NULL : k->ptx_name, out);
        ptx_buf_putc(out, '\n');
    }
    ptx_buf_puts(out, "def ");
    ptx_buf_puts(out, k->py_name);
    ptx_buf_puts(out, "():\n");
}

void cg_print_kernel_foot(const cg_module *m, const cg_kernel *k, ptx_buf *out)
{
    if (!k->decorated && !readable(m)) {
        ptx_buf_puts(out, "\n\n");
        ptx_buf_puts(out, k->py_name);
        ptx_buf_puts(out, ".__name__ = ");
        py_str_cstr(out, k->ptx_name);
        ptx_buf_putc(out, '\n');
        ptx_buf_puts(out, k->py_name);
        ptx_buf_puts(out, " = kernel");
        kernel_args(m, k, NULL, out);
        ptx_buf_putc(out, '(');
        ptx_buf_puts(out, k->py_name);
        ptx_buf_puts(out, ")\n");
    }
}

void cg_print_kernel(const cg_module *m, const cg_kernel *k, ptx_buf *out)
{
    cg_print_kernel_head(m, k, out);
    cg_print_stmts(m, k, k->body, 1, out);
    cg_print_kernel_foot(m, k, out);
}

static void kernels_dict(const cg_module *m, ptx_buf *out)
{
    ptx_buf_puts(out, "\n\n# PTX .entry name -> pyptx Kernel.\nKERNELS = {");
    int first = 1;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        if (k->unsupported)
            continue;
        ptx_buf_puts(out, first ? "\n    " : ",\n    ");
        py_str_cstr(out, k->ptx_name);
        ptx_buf_puts(out, ": ");
        ptx_buf_puts(out, k->py_name);
        first = 0;
    }
    ptx_buf_puts(out, first ? "}\n" : ",\n}\n");
}

/* `lead`: the blank lines before it */
static void unsupported_dict(const cg_module *m, const char *lead, ptx_buf *out)
{
    ptx_buf_puts(out, lead);
    ptx_buf_puts(out, "# Entries pyptx 0.1.1 cannot express, with the reason; "
                      "_MODULE carries\n# them verbatim.\nUNSUPPORTED = {");
    int first = 1;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        if (!k->unsupported)
            continue;
        ptx_buf_puts(out, first ? "\n    " : ",\n    ");
        py_str_cstr(out, k->ptx_name);
        ptx_buf_puts(out, ": ");
        py_str_cstr(out, k->unsupported);
        first = 0;
    }
    ptx_buf_puts(out, first ? "}\n" : ",\n}\n");
}

/* A raw segment, one literal per source line. */
static void segment(const cg_seg *s, ptx_buf *out)
{
    if (s->nkinds) {
        ptx_buf_puts(out, "    # not DSL code (pyptx's @kernel emits one .entry): ");
        for (unsigned i = 0; i < s->nkinds; i++) {
            if (i)
                ptx_buf_put(out, ", ", 2);
            ptx_buf_puts(out, cg_seg_kind_names[s->kinds[i]]);
        }
        ptx_buf_putc(out, '\n');
    }
    const char *p = s->p, *e = s->p + s->n;
    const char *nl = memchr(p, '\n', s->n);
    if (!nl || nl + 1 >= e) {
        ptx_buf_puts(out, "    ");
        py_str(out, p, s->n);
        ptx_buf_puts(out, ",\n");
        return;
    }
    ptx_buf_puts(out, "    (");
    py_lines(out, p, s->n, "\n     ");
    ptx_buf_puts(out, "),\n");
}

static void module_tuple(const cg_module *m, ptx_buf *out)
{
    ptx_buf_puts(out, "\n# The module in source order: str = PTX carried verbatim, "
                      "else a kernel.\n_MODULE = (\n");
    for (uint32_t i = 0; i < m->nsegs; i++) {
        const cg_seg *s = &m->segs[i];
        if (s->kernel >= 0) {
            ptx_buf_puts(out, "    ");
            ptx_buf_puts(out, m->kernels[s->kernel].py_name);
            ptx_buf_puts(out, ",\n");
        } else
            segment(s, out);
    }
    ptx_buf_puts(out, ")\n");
}

static const char plain_tail[] =
    "\n\ndef _entry_text(k):\n"
    "    \"\"\"The .entry of a traced kernel, from `.entry` to its `}`: the\n"
    "    linkage and the text around it come from _MODULE.\"\"\"\n"
    "    t = k.ptx()\n"
    "    i = t.index(\".visible .entry \") + len(\".visible \")\n"
    "    return t[i:t.rindex(\"}\") + 1]\n"
    "\n\n"
    "def module_ptx():\n"
    "    \"\"\"The whole PTX module: carried text and traced kernels.\"\"\"\n"
    "    return \"\".join(s if isinstance(s, str) else _entry_text(s) for s in _MODULE)\n"
    "\n\n"
    "if __name__ == \"__main__\":\n"
    "    sys.stdout.buffer.write(module_ptx().encode(\"utf-8\", \"surrogateescape\"))\n";

/* The readable file's module_ptx(): _entry_text folded in. */
static const char readable_module[] =
    "\ndef module_ptx():\n"
    "    \"\"\"The whole PTX module: the text of _MODULE, and of each kernel its\n"
    "    traced .entry, from `.entry` to `}` (pyptx's header and `.visible` left out).\"\"\"\n"
    "    def entry(t):\n"
    "        return t[t.index(\".visible .entry \") + len(\".visible \"):t.rindex(\"}\") + 1]\n"
    "    return \"\".join(s if isinstance(s, str) else entry(s.ptx()) for s in _MODULE)\n";

/* The module is what pyptx's @kernel prints for its one kernel: k.ptx() is
   `.version M.m`, `.target ARCH`, `.address_size 64`, a blank line, the
   `.visible .entry` and a newline (DESIGN.md 2).  That kernel, or NULL
   where the module carries text the DSL cannot make. */
static const cg_kernel *whole_kernel(const cg_module *m)
{
    if (m->nkernels != 1 || m->kernels[0].unsupported || !m->version_ints ||
        m->nsegs != 3 || m->segs[0].kernel >= 0 || m->segs[1].kernel != 0 ||
        m->segs[2].kernel >= 0 || m->segs[2].n != 1 || m->segs[2].p[0] != '\n')
        return NULL;
    ptx_buf head = { 0 };
    ptx_buf_puts(&head, ".version ");
    ptx_buf_puts(&head, m->vmajor);
    ptx_buf_putc(&head, '.');
    ptx_buf_puts(&head, m->vminor);
    ptx_buf_puts(&head, "\n.target ");
    ptx_buf_puts(&head, m->arch);
    ptx_buf_puts(&head, "\n.address_size 64\n\n.visible ");
    int same = head.n == m->segs[0].n && memcmp(head.p, m->segs[0].p, head.n) == 0;
    ptx_buf_free(&head);
    return same ? &m->kernels[0] : NULL;
}

/* print() writes text in the locale's encoding: exact for ASCII, which
   every encoding spells the same.  A module with other bytes (UTF-8, or
   bytes that are not, carried as surrogate escapes) is written as bytes. */
static int tail_writes_bytes(const cg_module *m)
{
    if (!m->src)
        return !m->text_ascii;
    for (size_t i = 0; i < m->src->size; i++)
        if ((unsigned char)m->src->src[i] >= 0x80)
            return 1;
    return 0;
}

/* Readable output prints only what the module needs: where it is one
   kernel's k.ptx(), that kernel; else the carried text in _MODULE, with
   UNSUPPORTED where an entry is carried for want of a DSL form. */
static void readable_tail(const cg_module *m, ptx_buf *out)
{
    const cg_kernel *k = whole_kernel(m);
    if (!k) {
        uint32_t i = 0;
        while (i < m->nkernels && !m->kernels[i].unsupported)
            i++;
        if (i < m->nkernels)
            unsupported_dict(m, "\n", out);
        module_tuple(m, out);
        ptx_buf_puts(out, readable_module);
    }
    ptx_buf_puts(out, "\nif __name__ == \"__main__\":\n    ");
    int bytes = tail_writes_bytes(m);
    ptx_buf_puts(out, bytes ? "sys.stdout.buffer.write(" : "print(");
    ptx_buf_puts(out, k ? k->py_name : "module_ptx");
    ptx_buf_puts(out, k ? ".ptx()" : "()");
    ptx_buf_puts(out, bytes ? ".encode(\"utf-8\", \"surrogateescape\"))\n" : ", end=\"\")\n");
}

void cg_print_tail(const cg_module *m, ptx_buf *out)
{
    if (readable(m)) {
        readable_tail(m, out);
        return;
    }
    kernels_dict(m, out);
    unsupported_dict(m, "\n", out);
    module_tuple(m, out);
    ptx_buf_puts(out, plain_tail);
}
