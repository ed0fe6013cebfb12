/* SPDX-License-Identifier: Apache-2.0 */
/* mlkem_check.h: the modes of mlkem-check kept in files of their own. */
#ifndef MLKEM_TOOLS_CHECK_H
#define MLKEM_TOOLS_CHECK_H

/* `mlkem-check --config [FILE]` (mlkem_check_config.c): the configuration
 * doctor. FILE NULL: OPENSSL_CONF, else OpenSSL's default file. Returns
 * the exit status: 0 all well, 1 a problem, 2 the file cannot be read. */
int mlkem_check_config(const char *prog, const char *file);

#endif
