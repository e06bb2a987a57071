/*
 * names.c - data tables (pyptx types, Python keywords, reserved names,
 * special registers) and the spelling rules built on them: ptx.inst
 * attribute mangling (DESIGN.md 4.5) and Python names (DESIGN.md 8).
 */
#include <string.h>
#include "codegen/build.h"

/* pyptx.types scalar types, in the order of the import line. */
const char *const cg_types[] = {
    "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "tf32",
    "f32", "f64", "e4m3", "e5m2", "pred",
};
const unsigned cg_ntypes = sizeof cg_types / sizeof cg_types[0];

/* Word tables are grouped by length: a lookup compares only the words of
   the length asked, and this runs for every register declared and every
   opcode part.  Row n lists the words of n bytes, ended by { NULL };
   id is what a lookup returns (the cg_types index for types, else 0). */
typedef struct word {
    const char *s;
    int id;
} word;
enum { WORD_MAX = 14, WORDS_PER_LEN = 13 };
typedef const word word_table[WORD_MAX + 1][WORDS_PER_LEN];

static word_table py_keywords = {
    [2] = { { "as" }, { "if" }, { "in" }, { "is" }, { "or" } },
    [3] = { { "and" }, { "def" }, { "del" }, { "for" }, { "not" }, { "try" } },
    [4] = { { "None" }, { "True" }, { "elif" }, { "else" }, { "from" },
            { "pass" }, { "with" } },
    [5] = { { "False" }, { "async" }, { "await" }, { "break" }, { "class" },
            { "raise" }, { "while" }, { "yield" } },
    [6] = { { "assert" }, { "except" }, { "global" }, { "import" },
            { "lambda" }, { "return" } },
    [7] = { { "finally" } },
    [8] = { { "continue" }, { "nonlocal" } },
};

/* Names the generated file defines or imports itself. */
static word_table py_reserved = {
    [3] = { { "sys" }, { "reg" }, { "ptx" }, { "Reg" } },
    [4] = { { "_raw" }, { "smem" } },
    [6] = { { "kernel" }, { "_named" } },
    [7] = { { "PipeRef" }, { "KERNELS" }, { "_MODULE" } },
    [8] = { { "RegArray" } },
    [10] = { { "module_ptx" } },
    [9] = { { "_dyn_smem" } },
    [11] = { { "UNSUPPORTED" }, { "_entry_text" } },
    [14] = { { "_dyn_smem_addr" } },
};

/* cg_types by length, with their index there. */
static word_table type_words = {
    [2] = { { "b8", 0 }, { "u8", 5 }, { "s8", 9 } },
    [3] = { { "b16", 1 }, { "b32", 2 }, { "b64", 3 }, { "u16", 6 },
            { "u32", 7 }, { "u64", 8 }, { "s16", 10 }, { "s32", 11 },
            { "s64", 12 }, { "f16", 13 }, { "f32", 18 }, { "f64", 19 } },
    [4] = { { "b128", 4 }, { "bf16", 15 }, { "tf32", 17 }, { "e4m3", 20 },
            { "e5m2", 21 }, { "pred", 22 } },
    [5] = { { "f16x2", 14 } },
    [6] = { { "bf16x2", 16 } },
};

/* Special registers with a ptx.special accessor. */
static const struct { const char *ptx, *py; } specials[] = { /* %... */
    { "%tid.x", "ptx.special.tid.x()" },   { "%tid.y", "ptx.special.tid.y()" },
    { "%tid.z", "ptx.special.tid.z()" },   { "%ntid.x", "ptx.special.ntid.x()" },
    { "%ntid.y", "ptx.special.ntid.y()" }, { "%ntid.z", "ptx.special.ntid.z()" },
    { "%ctaid.x", "ptx.special.ctaid.x()" },
    { "%ctaid.y", "ptx.special.ctaid.y()" },
    { "%ctaid.z", "ptx.special.ctaid.z()" },
    { "%nctaid.x", "ptx.special.nctaid.x()" },
    { "%nctaid.y", "ptx.special.nctaid.y()" },
    { "%nctaid.z", "ptx.special.nctaid.z()" },
    { "%laneid", "ptx.special.laneid()" }, { "%warpid", "ptx.special.warpid()" },
    { "%clock", "ptx.special.clock()" },
};

static int find(word_table v, const char *s, size_t len)
{
    if (len == 0 || len > WORD_MAX)
        return -1;
    for (const word *w = v[len]; w->s; w++)
        if (w->s[0] == s[0] && !memcmp(w->s, s, len))
            return w->id;
    return -1;
}

int cg_type_index(const char *s, size_t n)
{
    return find(type_words, s, n);
}

int cg_py_keyword(const char *s, size_t n)
{
    return find(py_keywords, s, n) >= 0;
}

int cg_py_reserved(const char *s, size_t n)
{
    return cg_py_keyword(s, n) || cg_type_index(s, n) >= 0 ||
           find(py_reserved, s, n) >= 0;
}

const char *cg_special_py(const char *s, size_t n)
{
    if (n < 6 || n > 9)
        return NULL;
    for (unsigned i = 0; i < sizeof specials / sizeof *specials; i++)
        if (strlen(specials[i].ptx) == n && !memcmp(specials[i].ptx, s, n))
            return specials[i].py;
    return NULL;
}

int cg_is_decimal(const char *s, size_t n)
{
    if (n == 0 || (s[0] == '0' && n > 1))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static int is_alnum_(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

int cg_is_identifier(const char *s, size_t n)
{
    if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_alnum_(s[i]))
            return 0;
    return 1;
}

/* What pyptx 0.1.1 _GenericInst.__getattr__ does to an attribute name. */
static size_t unmangle(const char *a, size_t n, char *out)
{
    size_t b = 0, e = n;
    if (n > 1 && a[0] == '_' && a[1] >= '0' && a[1] <= '9')
        b = 1;
    else if (n > 0 && a[n - 1] == '_' && !(n > 1 && a[n - 2] == '_'))
        while (e > 0 && a[e - 1] == '_')
            e--;
    size_t o = 0;
    for (size_t i = b; i < e; i++) {
        if (a[i] == '_' && i + 1 < e && a[i + 1] == '_') {
            out[o++] = ':';
            out[o++] = ':';
            i++;
        } else {
            out[o++] = a[i];
        }
    }
    return o;
}

/* Shape check of DESIGN.md 4.5 step 1: [A-Za-z0-9_]+(::[A-Za-z0-9_]+)*,
   no "__", no trailing '_', no leading "_<digit>". */
static int part_shape_ok(const char *p, size_t n)
{
    if (n == 0 || p[n - 1] == '_' || p[n - 1] == ':' || p[0] == ':')
        return 0;
    if (n > 1 && p[0] == '_' && p[1] >= '0' && p[1] <= '9')
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ':') {
            if (i + 2 >= n || p[i + 1] != ':' || p[i + 2] == ':')
                return 0;
            i++;
        } else if (!is_alnum_(p[i]) || (p[i] == '_' && i + 1 < n && p[i + 1] == '_')) {
            return 0;
        }
    }
    return 1;
}

/* Bytes of opcode parts: letters, digits, '_' and ':' (A_ALNUM marks the
   first two).  A table, since the words run to fifty bytes (wgmma). */
enum { A_ALNUM = 1, A_DIGIT = 2, A_MARK = 4 };
static const unsigned char attr_class[256] = {
    ['0' ... '9'] = A_ALNUM | A_DIGIT,
    ['a' ... 'z'] = A_ALNUM, ['A' ... 'Z'] = A_ALNUM,
    ['_'] = A_MARK, [':'] = A_MARK,
};

/* cg_mangle of the common part, written into out (n + 1 bytes at most, no
   NUL), without the checks below: letters and digits, a single '_' or
   "::" (shared::cta -> shared__cta) only before a letter or digit, '_'
   put before a leading digit (2d -> _2d) and after a Python keyword
   (global -> global_).  0 for any other part. */
static size_t mangle_common(const char *p, size_t n, char *out)
{
    const unsigned char *u = (const unsigned char *)p;
    if (n == 0 || !(attr_class[u[0]] & A_ALNUM))
        return 0;
    size_t o = 0;
    unsigned seen = 0; /* classes met: a keyword has letters only */
    if (attr_class[u[0]] & A_DIGIT)
        out[o++] = '_';
    for (size_t i = 0; i < n; i++) {
        unsigned c = attr_class[u[i]];
        seen |= c;
        if (c & A_ALNUM) {
            out[o++] = p[i];
        } else if (p[i] == '_' && i + 1 < n && (attr_class[u[i + 1]] & A_ALNUM)) {
            out[o++] = '_';
        } else if (p[i] == ':' && i + 2 < n && p[i + 1] == ':' &&
                   (attr_class[u[i + 2]] & A_ALNUM)) {
            out[o++] = '_';
            out[o++] = '_';
            i++;
        } else {
            return 0;
        }
    }
    if (seen == A_ALNUM && cg_py_keyword(p, n))
        out[o++] = '_';
    return o;
}

size_t cg_mangle(const char *p, size_t n, char *out, size_t cap)
{
    if (n + 3 > cap)
        return 0;
    size_t o = mangle_common(p, n, out);
    if (o) {
        out[o] = 0;
        return o;
    }
    if (!part_shape_ok(p, n))
        return 0;
    if (p[0] >= '0' && p[0] <= '9')
        out[o++] = '_';
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ':') {
            out[o++] = '_';
            out[o++] = '_';
            i++;
        } else {
            out[o++] = p[i];
        }
    }
    if (cg_py_keyword(out, o))
        out[o++] = '_';
    out[o] = 0;
    if (!strcmp(out, "_opcode") || !strcmp(out, "_modifiers") ||
        !strcmp(out, "_raw_emit") || (o > 1 && out[0] == '_' && out[1] == '_'))
        return 0;
    char back[300];
    if (o > sizeof back || unmangle(out, o, back) != n || memcmp(back, p, n))
        return 0;
    return o;
}

const char *cg_py_name(cg_module *m, cg_kernel *k, const char *ptx)
{
    char base[256];
    size_t n = 0, len = strlen(ptx);
    const char *s = ptx[0] == '%' ? ptx + 1 : ptx;
    if (ptx[0] == '%')
        len--;
    if (len > 200)
        len = 200;
    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        base[n++] = len ? '_' : 'v';
    for (size_t i = 0; i < len; i++)
        base[n++] = is_alnum_(s[i]) ? s[i] : '_';
    base[n] = 0;
    if (cg_py_reserved(base, n) || (n > 1 && base[0] == '_' && base[1] == '_')) {
        base[n++] = '_';
        base[n] = 0;
    }
    const char *py = cg_pyset_claim(m, k, base, n);
    if (py)
        return py;
    /* base_2, base_3 ...: from where the last search for this base
       stopped (a thousand scoped `P1`s would otherwise retry them all) */
    cg_mslot *next = cg_suffix_next(m, &k->pysuffix, base, n, 2);
    char cand[280];
    memcpy(cand, base, n);
    cand[n] = '_';
    uint32_t i = (uint32_t)next->val;
    for (; !py; i++) {
        char *e = cg_put_digits(cand + n + 1, i, 0);
        py = cg_pyset_claim(m, k, cand, (size_t)(e - cand));
    }
    next->val = (int32_t)i;
    return py;
}
