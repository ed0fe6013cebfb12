# SPDX-License-Identifier: Apache-2.0
# cli_lib.sh: shell helpers shared by cli_30.sh and cli_interop.sh.

# write_formats_cnf FILE DIR FORMATS: an openssl.cnf loading the default
# provider and mlkem.so from DIR, with ml-kem.output_formats = FORMATS in
# the provider's section.
write_formats_cnf() {
    cat >"$1" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
mlkem = mlkem_sect
[default_sect]
activate = 1
[mlkem_sect]
module = $2/mlkem.so
activate = 1
ml-kem.output_formats = $3
EOF
}
