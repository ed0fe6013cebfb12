/* SPDX-License-Identifier: Apache-2.0 */
/*
 * conf_keys.h: the keys a provider section of openssl.cnf may hold for
 * mlkem, and the walk over such a section, shared by the module
 * (provider/config.c, which reports unknown keys through its error queue)
 * and mlkem-check --config (tools/mlkem_check_config.c, which cannot link
 * the module). Header-only: each includes it into its own translation unit.
 *
 * A value that names a section is a subsection, walked as the core walks
 * it: "ml-kem = ml_kem_sect" gives the keys "ml-kem.<key>" (to a depth of
 * four, like the core).
 */
#ifndef MLKEM_PROVIDER_CONF_KEYS_H
#define MLKEM_PROVIDER_CONF_KEYS_H

#include <stdio.h>
#include <string.h>

#include <openssl/conf.h>

/* The keys the core reads itself, top level only. */
static const char *const mlkem_conf_core_keys[] = { "module", "activate",
                                                    "identity", "soft_load" };
/* Ours: top level or under "ml-kem." ("decoders" is top level only). */
static const char *const mlkem_conf_own_keys[] = { "retain_seed", "prefer_seed",
                                                   "output_formats",
                                                   "input_formats" };
/* As messages list them: mlkem's keys, and all of them. */
#define MLKEM_CONF_OWN_KEYS                                                   \
    "ml-kem.retain_seed, ml-kem.prefer_seed, ml-kem.output_formats, "         \
    "ml-kem.input_formats, decoders"
#define MLKEM_CONF_ALL_KEYS                                                   \
    "module, activate, identity, soft_load, decoders, ml-kem.retain_seed, "   \
    "ml-kem.prefer_seed, ml-kem.output_formats, ml-kem.input_formats"

/* The key without its "ml-kem." prefix (the key itself when it has none). */
static inline const char *mlkem_conf_base(const char *key)
{
    return strncmp(key, "ml-kem.", 7) == 0 ? key + 7 : key;
}

/* 1 if key (as the walk names it) is one that OpenSSL or mlkem reads. */
static inline int mlkem_conf_known_key(const char *key)
{
    const char *k = mlkem_conf_base(key);

    for (size_t i = 0; i < 4; i++) {
        if (k == key && strcmp(k, mlkem_conf_core_keys[i]) == 0)
            return 1;
        if (strcmp(k, mlkem_conf_own_keys[i]) == 0)
            return 1;
    }
    return k == key && strcmp(k, "decoders") == 0;
}

/* Calls visit(section, name, key, value, arg) for every key of section
 * that is not a subsection, key being the dotted name from the provider
 * section (prefix is "" at the top). */
typedef void mlkem_conf_visit_fn(const char *section, const char *name,
                                 const char *key, const char *value,
                                 void *arg);

static inline void mlkem_conf_walk(const CONF *conf, const char *section,
                                   const char *prefix, int depth,
                                   mlkem_conf_visit_fn *visit, void *arg)
{
    STACK_OF(CONF_VALUE) *sk = NCONF_get_section(conf, section);

    for (int i = 0; sk != NULL && i < sk_CONF_VALUE_num(sk); i++) {
        const CONF_VALUE *cv = sk_CONF_VALUE_value(sk, i);
        char key[160], sub[sizeof(key)];
        int n;

        if (cv->name == NULL || cv->value == NULL)
            continue;
        /* A dotted name longer than any real one is no key of ours. */
        n = snprintf(key, sizeof(key), "%s%s", prefix, cv->name);
        if (n < 0 || (size_t)n >= sizeof(key))
            continue;
        if (depth < 4 && NCONF_get_section(conf, cv->value) != NULL) {
            n = snprintf(sub, sizeof(sub), "%s.", key);
            if (n > 0 && (size_t)n < sizeof(sub))
                mlkem_conf_walk(conf, cv->value, sub, depth + 1, visit, arg);
        } else {
            visit(section, cv->name, key, cv->value, arg);
        }
    }
}

#endif /* MLKEM_PROVIDER_CONF_KEYS_H */
