/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_json.h: a small, strict JSON (RFC 8259) reader for test vectors.
 *
 * It builds a tree in memory (the ACVP files are a few MB). Strict: no
 * comments, no trailing commas, no leading zeros, nesting limited to 64
 * levels, string escapes decoded (\uXXXX to UTF-8, surrogate pairs joined).
 * Errors come back as a message with the line and column; the parser never
 * aborts on bad input.
 */
#ifndef MLKEM_TEST_JSON_H
#define MLKEM_TEST_JSON_H

#include <stddef.h>

typedef enum {
    TEST_JSON_NULL,
    TEST_JSON_BOOL,
    TEST_JSON_NUMBER,
    TEST_JSON_STRING,
    TEST_JSON_ARRAY,
    TEST_JSON_OBJECT
} test_json_type;

typedef struct test_json test_json;
struct test_json {
    test_json_type type;
    int boolean;       /* TEST_JSON_BOOL: 0 / 1 */
    double number;     /* TEST_JSON_NUMBER */
    int is_integer;    /* TEST_JSON_NUMBER written without '.', 'e' or 'E' */
    char *str;         /* TEST_JSON_STRING: decoded, NUL-terminated */
    size_t str_len;    /* its length (it may contain NUL from \u0000) */
    size_t n;          /* TEST_JSON_ARRAY / TEST_JSON_OBJECT: element count */
    test_json *items;  /* elements, or the members' values */
    char **keys;       /* TEST_JSON_OBJECT: the members' names, decoded */
};

/* Parse len bytes. Returns a tree to free with test_json_free(), or NULL with
 * a message (line:column: reason) in err. */
test_json *test_json_parse(const char *text, size_t len, char *err,
                           size_t errlen);
void test_json_free(test_json *v);

const char *test_json_type_name(test_json_type t);

/* Member `key` of an object (the first one if repeated); NULL when v is not
 * an object or has no such member. */
const test_json *test_json_get(const test_json *v, const char *key);
/* The member's string, or NULL if missing or not a string. */
const char *test_json_get_str(const test_json *v, const char *key);
/* The member as an integer: 0, or -1 if missing, not a number, or not an
 * integer that fits in a long. */
int test_json_get_int(const test_json *v, const char *key, long *out);
/* The member as a boolean: 0, or -1 if missing or not true/false. */
int test_json_get_bool(const test_json *v, const char *key, int *out);
/* The member if it is an array, else NULL. */
const test_json *test_json_get_array(const test_json *v, const char *key);

#endif /* MLKEM_TEST_JSON_H */
