/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_json.c: see test_json.h. Recursive descent over the RFC 8259 grammar.
 */
#include "test/common/test_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
    int failed;
} parser;

static void perr(parser *p, const char *fmt, ...)
{
    size_t line = 1, col = 1;
    char msg[200];
    va_list ap;

    if (p->failed)
        return; /* keep the first, innermost reason */
    p->failed = 1;
    for (size_t i = 0; i < p->pos && i < p->len; i++) {
        if (p->s[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (p->err != NULL && p->errlen > 0)
        snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col,
                 msg);
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

static int peek(const parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0) {
        perr(p, "invalid literal (expected '%s')", word);
        return -1;
    }
    p->pos += n;
    return 0;
}

static int hex4(parser *p, unsigned *out)
{
    unsigned v = 0;
    if (p->len - p->pos < 4) {
        perr(p, "truncated \\u escape");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else {
            perr(p, "bad hex digit in \\u escape");
            return -1;
        }
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Parse a string starting at '"'; *out is a new NUL-terminated buffer. */
static int parse_string(parser *p, char **out, size_t *outlen)
{
    size_t start, end, n = 0;
    char *buf;

    p->pos++; /* opening quote */
    start = p->pos;
    /* Find the closing quote first: the decoded text is never longer. */
    for (end = start; end < p->len; end++) {
        if (p->s[end] == '\\')
            end++;
        else if (p->s[end] == '"')
            break;
    }
    if (end >= p->len) {
        perr(p, "unterminated string");
        return -1;
    }
    buf = malloc(end - start + 1);
    if (buf == NULL) {
        perr(p, "out of memory");
        return -1;
    }
    while (p->pos < end) {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c < 0x20) {
            perr(p, "control character in string");
            goto err;
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            p->pos++;
            continue;
        }
        p->pos++;
        c = (unsigned char)p->s[p->pos++];
        switch (c) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(p, &cp) != 0)
                goto err;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                /* High surrogate: a low one must follow (6 + 6 escaped
                 * bytes decode to 4 UTF-8 bytes, so the buffer suffices). */
                if (p->pos + 2 > end || p->s[p->pos] != '\\' ||
                    p->s[p->pos + 1] != 'u') {
                    perr(p, "unpaired surrogate in \\u escape");
                    goto err;
                }
                p->pos += 2;
                if (hex4(p, &lo) != 0)
                    goto err;
                if (lo < 0xdc00 || lo > 0xdfff) {
                    perr(p, "unpaired surrogate in \\u escape");
                    goto err;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                perr(p, "unpaired surrogate in \\u escape");
                goto err;
            }
            n += put_utf8(buf + n, cp);
            break;
        }
        default:
            perr(p, "invalid escape '\\%c'", c >= 0x20 && c < 0x7f ? c : '?');
            goto err;
        }
    }
    p->pos = end + 1; /* closing quote */
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return 0;
err:
    free(buf);
    return -1;
}

static int parse_number(parser *p, test_json *v)
{
    size_t start = p->pos;
    char tmp[64];
    int integer = 1;

#define DIGIT(c) ((c) >= '0' && (c) <= '9')
    if (peek(p) == '-')
        p->pos++;
    if (peek(p) == '0') {
        p->pos++;
    } else if (DIGIT(peek(p))) {
        while (DIGIT(peek(p)))
            p->pos++;
    } else {
        perr(p, "invalid number");
        return -1;
    }
    if (peek(p) == '.') {
        integer = 0;
        p->pos++;
        if (!DIGIT(peek(p))) {
            perr(p, "invalid number (digit expected after '.')");
            return -1;
        }
        while (DIGIT(peek(p)))
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        integer = 0;
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!DIGIT(peek(p))) {
            perr(p, "invalid number (digit expected in exponent)");
            return -1;
        }
        while (DIGIT(peek(p)))
            p->pos++;
    }
#undef DIGIT
    if (p->pos - start >= sizeof(tmp)) {
        perr(p, "number too long");
        return -1;
    }
    memcpy(tmp, p->s + start, p->pos - start);
    tmp[p->pos - start] = '\0';
    v->type = TEST_JSON_NUMBER;
    v->number = strtod(tmp, NULL);
    v->is_integer = integer;
    return 0;
}

static int parse_value(parser *p, test_json *v, int depth);

/* Append one zeroed slot to an array/object under construction. */
static test_json *grow(parser *p, test_json *v, size_t *cap, int with_key)
{
    if (v->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        test_json *ni = realloc(v->items, nc * sizeof(*ni));
        if (ni == NULL) {
            perr(p, "out of memory");
            return NULL;
        }
        v->items = ni;
        if (with_key) {
            char **nk = realloc(v->keys, nc * sizeof(*nk));
            if (nk == NULL) {
                perr(p, "out of memory");
                return NULL;
            }
            v->keys = nk;
        }
        *cap = nc;
    }
    memset(&v->items[v->n], 0, sizeof(v->items[0]));
    if (with_key)
        v->keys[v->n] = NULL;
    return &v->items[v->n++];
}

static int parse_array(parser *p, test_json *v, int depth)
{
    size_t cap = 0;

    v->type = TEST_JSON_ARRAY;
    p->pos++; /* '[' */
    skip_ws(p);
    if (peek(p) == ']') {
        p->pos++;
        return 0;
    }
    for (;;) {
        test_json *item = grow(p, v, &cap, 0);
        if (item == NULL || parse_value(p, item, depth + 1) != 0)
            return -1;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == ']') {
            p->pos++;
            return 0;
        }
        perr(p, "expected ',' or ']' in array");
        return -1;
    }
}

static int parse_object(parser *p, test_json *v, int depth)
{
    size_t cap = 0;

    v->type = TEST_JSON_OBJECT;
    p->pos++; /* '{' */
    skip_ws(p);
    if (peek(p) == '}') {
        p->pos++;
        return 0;
    }
    for (;;) {
        test_json *item;
        char *key;
        size_t keylen;

        skip_ws(p);
        if (peek(p) != '"') {
            perr(p, "expected a member name (string)");
            return -1;
        }
        item = grow(p, v, &cap, 1);
        if (item == NULL)
            return -1;
        if (parse_string(p, &key, &keylen) != 0)
            return -1;
        v->keys[v->n - 1] = key;
        skip_ws(p);
        if (peek(p) != ':') {
            perr(p, "expected ':' after member name");
            return -1;
        }
        p->pos++;
        if (parse_value(p, item, depth + 1) != 0)
            return -1;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == '}') {
            p->pos++;
            return 0;
        }
        perr(p, "expected ',' or '}' in object");
        return -1;
    }
}

static int parse_value(parser *p, test_json *v, int depth)
{
    if (depth > MAX_DEPTH) {
        perr(p, "nesting deeper than %d", MAX_DEPTH);
        return -1;
    }
    skip_ws(p);
    switch (peek(p)) {
    case '{':
        return parse_object(p, v, depth);
    case '[':
        return parse_array(p, v, depth);
    case '"':
        v->type = TEST_JSON_STRING;
        return parse_string(p, &v->str, &v->str_len);
    case 't':
        v->type = TEST_JSON_BOOL;
        v->boolean = 1;
        return literal(p, "true");
    case 'f':
        v->type = TEST_JSON_BOOL;
        v->boolean = 0;
        return literal(p, "false");
    case 'n':
        v->type = TEST_JSON_NULL;
        return literal(p, "null");
    case -1:
        perr(p, "unexpected end of input");
        return -1;
    default:
        if (peek(p) == '-' || (peek(p) >= '0' && peek(p) <= '9'))
            return parse_number(p, v);
        perr(p, "unexpected character '%c'",
             peek(p) >= 0x20 && peek(p) < 0x7f ? peek(p) : '?');
        return -1;
    }
}

static void free_contents(test_json *v)
{
    if (v->type == TEST_JSON_STRING) {
        free(v->str);
    } else if (v->type == TEST_JSON_ARRAY || v->type == TEST_JSON_OBJECT) {
        for (size_t i = 0; i < v->n; i++) {
            free_contents(&v->items[i]);
            if (v->keys != NULL)
                free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
}

test_json *test_json_parse(const char *text, size_t len, char *err,
                           size_t errlen)
{
    parser p = {text, len, 0, err, errlen, 0};
    test_json *v = calloc(1, sizeof(*v));

    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (v == NULL) {
        perr(&p, "out of memory");
        return NULL;
    }
    if (parse_value(&p, v, 0) == 0) {
        skip_ws(&p);
        if (p.pos == p.len)
            return v;
        perr(&p, "trailing data after the top-level value");
    }
    test_json_free(v);
    return NULL;
}

void test_json_free(test_json *v)
{
    if (v == NULL)
        return;
    free_contents(v);
    free(v);
}

const char *test_json_type_name(test_json_type t)
{
    switch (t) {
    case TEST_JSON_NULL: return "null";
    case TEST_JSON_BOOL: return "boolean";
    case TEST_JSON_NUMBER: return "number";
    case TEST_JSON_STRING: return "string";
    case TEST_JSON_ARRAY: return "array";
    case TEST_JSON_OBJECT: return "object";
    }
    return "?";
}

const test_json *test_json_get(const test_json *v, const char *key)
{
    if (v == NULL || v->type != TEST_JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (v->keys[i] != NULL && strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

const char *test_json_get_str(const test_json *v, const char *key)
{
    const test_json *m = test_json_get(v, key);
    return m != NULL && m->type == TEST_JSON_STRING ? m->str : NULL;
}

int test_json_get_int(const test_json *v, const char *key, long *out)
{
    const test_json *m = test_json_get(v, key);
    if (m == NULL || m->type != TEST_JSON_NUMBER || !m->is_integer ||
        m->number < -1e15 || m->number > 1e15)
        return -1;
    *out = (long)m->number;
    return 0;
}

int test_json_get_bool(const test_json *v, const char *key, int *out)
{
    const test_json *m = test_json_get(v, key);
    if (m == NULL || m->type != TEST_JSON_BOOL)
        return -1;
    *out = m->boolean;
    return 0;
}

const test_json *test_json_get_array(const test_json *v, const char *key)
{
    const test_json *m = test_json_get(v, key);
    return m != NULL && m->type == TEST_JSON_ARRAY ? m : NULL;
}
