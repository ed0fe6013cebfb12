/* SPDX-License-Identifier: Apache-2.0 */
/*
 * insn_plugin.c: a qemu TCG plugin that counts the guest instructions a
 * program executes, per phase and per function.
 *
 * Built against the qemu-plugin.h of the qemu that loads it
 * (bench/qemu/plugin-header.sh fetches it; bench/qemu/icount.sh builds
 * this file), then:
 *   qemu-aarch64 -cpu max -plugin insn_plugin.so,out=FILE,syms=SYMS prog
 *
 * Phases. A function whose name starts with "icount_mark_" is a marker:
 * when it executes, the count switches to the phase named by the rest of
 * its name (icount_mark_keygen starts phase "keygen"), until the next
 * marker. Before the first marker the phase is "startup". The program
 * (bench/qemu/icount_driver.c) calls a marker before each operation's loop
 * and icount_mark_idle after it, so a phase holds exactly the
 * instructions of the loop (plus the marker's own few).
 *
 * Functions. syms=FILE names a list of "hexaddress size name" lines (nm -S
 * of a non-PIE program: its run-time addresses); an instruction belongs to
 * the function whose [address, address + size) holds it, and executing the
 * function's first instruction counts an entry (a call, or a jump to its
 * start). Without syms= the names come from qemu's own lookup
 * (qemu_plugin_insn_symbol: the main program's symbol table) and no entries
 * are counted. Instructions outside every function count as "?".
 *
 * Trace (trace=PHASE,traceout=FILE): also the address of every instruction
 * executed in that phase, one hexadecimal number a line, in execution
 * order (bench/qemu/mca.sh maps them to the program's disassembly and
 * feeds them to llvm-mca). This registers a callback per instruction, so
 * it is slower; counts are unchanged.
 *
 * Output (out=FILE, else qemu's log): one line per phase and function that
 * executed, tab separated:
 *   <phase> <function> <instructions> <entries>
 * and per phase a line with function "*" holding its total.
 *
 * Counting: one callback per executed translation block adds the block's
 * instructions to the current phase, split by function when a block
 * crosses a function boundary. Under qemu-user a block always runs to its
 * end (no interrupts; a faulting instruction would end the program), so
 * the counts are exact and deterministic for a deterministic program. One
 * guest thread is assumed (the driver has one); the counters are not
 * atomic.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK_PREFIX "icount_mark_"

/* ---- Interned names: functions and phases -------------------------------- */

struct names {
    char **name;
    size_t n, cap;
    size_t *slot; /* open addressing: index + 1, 0 empty */
    size_t nslot;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t intern(struct names *t, const char *s)
{
    if (2 * (t->n + 1) > t->nslot) {
        size_t ns = t->nslot ? 2 * t->nslot : 1024;
        size_t *sl = calloc(ns, sizeof(*sl));
        if (sl == NULL)
            abort();
        for (size_t i = 0; i < t->n; i++) {
            size_t h = hash_str(t->name[i]) & (ns - 1);
            while (sl[h] != 0)
                h = (h + 1) & (ns - 1);
            sl[h] = i + 1;
        }
        free(t->slot);
        t->slot = sl;
        t->nslot = ns;
    }
    size_t h = hash_str(s) & (t->nslot - 1);
    while (t->slot[h] != 0) {
        if (strcmp(t->name[t->slot[h] - 1], s) == 0)
            return t->slot[h] - 1;
        h = (h + 1) & (t->nslot - 1);
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->name = realloc(t->name, t->cap * sizeof(*t->name));
        if (t->name == NULL)
            abort();
    }
    t->name[t->n] = strdup(s);
    if (t->name[t->n] == NULL)
        abort();
    t->slot[h] = t->n + 1;
    return t->n++;
}

static struct names funcs, phases;

/* ---- The symbol list (syms=) --------------------------------------------- */

struct sym {
    uint64_t start, size;
    size_t func; /* index in funcs */
};
static struct sym *syms;
static size_t nsyms;

static int sym_cmp(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int load_syms(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[4096], name[4000];
    size_t cap = 0;
    uint64_t a, sz;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "%" SCNx64 " %" SCNx64 " %3999s", &a, &sz, name) != 3 ||
            sz == 0)
            continue;
        if (nsyms == cap) {
            cap = cap ? 2 * cap : 4096;
            syms = realloc(syms, cap * sizeof(*syms));
            if (syms == NULL)
                abort();
        }
        syms[nsyms].start = a;
        syms[nsyms].size = sz;
        syms[nsyms].func = intern(&funcs, name);
        nsyms++;
    }
    fclose(f);
    qsort(syms, nsyms, sizeof(*syms), sym_cmp);
    return 1;
}

/* The symbol holding address a, or NULL. */
static const struct sym *sym_at(uint64_t a)
{
    size_t lo = 0, hi = nsyms;
    while (lo < hi) { /* first start > a */
        size_t mid = (lo + hi) / 2;
        if (syms[mid].start <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0;) { /* nested/aliased symbols: the innermost */
        if (a - syms[i].start < syms[i].size)
            return &syms[i];
        if (lo - i > 8)
            break;
    }
    return NULL;
}

/* ---- Counters -------------------------------------------------------------- */

struct counts {
    uint64_t *insns, *entries;
    size_t n;
};
static struct counts *per_phase; /* indexed by phase */
static size_t nper_phase;
static size_t cur_phase;

static struct counts *phase_counts(size_t p, size_t func)
{
    if (p >= nper_phase) {
        size_t nn = p + 8;
        per_phase = realloc(per_phase, nn * sizeof(*per_phase));
        if (per_phase == NULL)
            abort();
        memset(per_phase + nper_phase, 0,
               (nn - nper_phase) * sizeof(*per_phase));
        nper_phase = nn;
    }
    struct counts *c = &per_phase[p];
    if (func >= c->n) {
        size_t nn = funcs.n > func ? funcs.n + 256 : func + 256;
        c->insns = realloc(c->insns, nn * sizeof(uint64_t));
        c->entries = realloc(c->entries, nn * sizeof(uint64_t));
        if (c->insns == NULL || c->entries == NULL)
            abort();
        memset(c->insns + c->n, 0, (nn - c->n) * sizeof(uint64_t));
        memset(c->entries + c->n, 0, (nn - c->n) * sizeof(uint64_t));
        c->n = nn;
    }
    return c;
}

/* A translation block: runs of instructions of one function. */
struct seg {
    size_t func;
    uint32_t insns;
    uint8_t entry;    /* the run starts at the function's first instruction */
    int32_t phase;    /* >= 0: the function is a marker of this phase */
};
struct block {
    size_t nseg;
    struct seg seg[];
};

static void block_exec(unsigned int vcpu, void *udata)
{
    const struct block *b = udata;
    (void)vcpu;
    for (size_t i = 0; i < b->nseg; i++) {
        const struct seg *s = &b->seg[i];
        if (s->phase >= 0)
            cur_phase = (size_t)s->phase;
        struct counts *c = phase_counts(cur_phase, s->func);
        c->insns[s->func] += s->insns;
        c->entries[s->func] += s->entry;
    }
}

static size_t unknown_func;
static int trace_phase = -1;
static FILE *trace_out;

static void insn_exec(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    if ((int)cur_phase == trace_phase)
        fprintf(trace_out, "%" PRIx64 "\n", (uint64_t)(uintptr_t)udata);
}

static void block_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    const size_t n = qemu_plugin_tb_n_insns(tb);
    struct block *b = calloc(1, sizeof(*b) + n * sizeof(struct seg));
    (void)id;
    if (b == NULL)
        abort();
    for (size_t i = 0; i < n; i++) {
        const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const uint64_t va = qemu_plugin_insn_vaddr(insn);
        size_t func = unknown_func;
        int entry = 0;
        if (nsyms > 0) {
            const struct sym *s = sym_at(va);
            if (s != NULL) {
                func = s->func;
                entry = s->start == va;
            }
        } else {
            const char *nm = qemu_plugin_insn_symbol(insn);
            if (nm != NULL && *nm != '\0')
                func = intern(&funcs, nm);
        }
        if (b->nseg == 0 || b->seg[b->nseg - 1].func != func || entry) {
            struct seg *s = &b->seg[b->nseg++];
            const char *fn = funcs.name[func];
            s->func = func;
            s->insns = 0;
            s->entry = (uint8_t)entry;
            s->phase = -1;
            if (strncmp(fn, MARK_PREFIX, strlen(MARK_PREFIX)) == 0)
                s->phase = (int32_t)intern(&phases, fn + strlen(MARK_PREFIX));
        }
        b->seg[b->nseg - 1].insns++;
        if (trace_out != NULL)
            qemu_plugin_register_vcpu_insn_exec_cb(
                (struct qemu_plugin_insn *)insn, insn_exec,
                QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)va);
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
                                         QEMU_PLUGIN_CB_NO_REGS, b);
}

/* ---- Output ---------------------------------------------------------------- */

static char *out_path;

static void at_exit(qemu_plugin_id_t id, void *p)
{
    FILE *f = out_path != NULL ? fopen(out_path, "w") : NULL;
    (void)id;
    (void)p;
    if (out_path != NULL && f == NULL) {
        qemu_plugin_outs("insn_plugin: cannot open the out= file\n");
        return;
    }
    for (size_t ph = 0; ph < nper_phase && ph < phases.n; ph++) {
        const struct counts *c = &per_phase[ph];
        uint64_t total = 0;
        char line[4400];
        for (size_t i = 0; i < c->n; i++) {
            if (c->insns[i] == 0)
                continue;
            total += c->insns[i];
            snprintf(line, sizeof(line), "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\n",
                     phases.name[ph], funcs.name[i], c->insns[i],
                     c->entries[i]);
            if (f != NULL)
                fputs(line, f);
            else
                qemu_plugin_outs(line);
        }
        snprintf(line, sizeof(line), "%s\t*\t%" PRIu64 "\t0\n", phases.name[ph],
                 total);
        if (f != NULL)
            fputs(line, f);
        else
            qemu_plugin_outs(line);
    }
    if (f != NULL)
        fclose(f);
    if (trace_out != NULL)
        fclose(trace_out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv)
{
    (void)info;
    intern(&phases, "startup"); /* phase 0 */
    unknown_func = intern(&funcs, "?");
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            out_path = strdup(argv[i] + 4);
        } else if (strncmp(argv[i], "trace=", 6) == 0) {
            trace_phase = (int)intern(&phases, argv[i] + 6);
        } else if (strncmp(argv[i], "traceout=", 9) == 0) {
            trace_out = fopen(argv[i] + 9, "w");
            if (trace_out == NULL) {
                fprintf(stderr, "insn_plugin: cannot write %s\n", argv[i] + 9);
                return -1;
            }
        } else if (strncmp(argv[i], "syms=", 5) == 0) {
            if (!load_syms(argv[i] + 5)) {
                fprintf(stderr, "insn_plugin: cannot read %s\n", argv[i] + 5);
                return -1;
            }
        } else {
            fprintf(stderr, "insn_plugin: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    if ((trace_phase >= 0) != (trace_out != NULL)) {
        fprintf(stderr, "insn_plugin: trace= and traceout= go together\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
