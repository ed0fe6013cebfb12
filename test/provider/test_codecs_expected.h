/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codecs_expected.h: what OpenSSL 3.5.7's own ML-KEM encoders write
 * for the key generated from the fixed seed d || z = 00 01 02 .. 3f.
 *
 * Produced once with the 3.5.7 CLI (default provider only):
 *   openssl genpkey -algorithm ML-KEM-<n> -pkeyopt hexseed:000102..3f -out k.pem
 *   openssl pkey -in k.pem -pubout -outform DER | sha256sum
 *   openssl pkey -in k.pem -outform DER -provparam ml-kem.output_formats=<fmt>
 *   openssl pkey -in k.pem -text -noout | sha256sum        (text_priv_seed)
 *   openssl pkey -in k.pem -text_pub -noout | sha256sum    (text_pub)
 *   openssl pkey -inform DER -in priv-only.der -text -noout (text_priv_noseed)
 * Lengths agree with FIPS 203 Table 3 and the layouts of codecs_der.h.
 * KAT shared secrets: seed 00..3f, ikme = 40 41 .. 5f.
 */
#ifndef MLKEM_TEST_CODECS_EXPECTED_H
#define MLKEM_TEST_CODECS_EXPECTED_H

#include <stddef.h>

/* Index = the provider's mlkem_fmt order: seed-priv, seed-only, priv-only,
 * oqskeypair, bare-seed, bare-priv. */
#define TEST_CODECS_NFMT 6

static const char *const test_codecs_fmt_names[TEST_CODECS_NFMT] = {
    "seed-priv", "seed-only", "priv-only", "oqskeypair", "bare-seed", "bare-priv"
};

static const struct test_codecs_expected {
    const char *name;
    int bits;
    size_t spki_len;
    const char *spki;
    size_t len[TEST_CODECS_NFMT];
    const char *sha[TEST_CODECS_NFMT];
    const char *text_priv_seed, *text_pub, *text_priv_noseed;
    const char *kat_ss;
} test_codecs_expected[3] = {
    { "ML-KEM-512", 512, 822,
      "0e3c8b89b54202d2545f7aba2e2aaa3cffa7b6191919ad738fab35b4f313cf71",
      { 1730, 86, 1660, 2460, 84, 1656 },
      { "8426d7497a2ff1a4854b7d1ece4e8f976c721f314c3f653189f8e4b2a2bc5b0d",
        "0fc934e3fb800359c219f4ede9fe4a1ae14018a20db779dcbaf2c8aba4fd6156",
        "38be7feecbbe6e6e466a0d7b5bb53e09040c3678e22fb2c0772c701c2372c858",
        "a1ab78a23e3741a2c5d1c48225729b54e21daf1fc0cbecc8ea82ed64fed8f031",
        "11f8222a14ae48207895816a166d142476b9b53bfc35d61146c4eae240911eba",
        "c6572e1ba5886931cfd066162c770458f94f45bb0a2b93f08c9bd83bab45544c" },
      "6f77e7c897d659defe7fb977115d2a72379028a49d3b3c08843bcc9643174a22",
      "44aa8b6b193d34f1cb1b3fb386815fc518f801235bd0dd50ae377b5a8f1da126",
      "ec2a4abc2b6499f69fb720d396d8c715de2f54e75037b05b2126b2510e016a71",
      "14cace3e48771b316676afad2cfcfe8488daaa4fad954e57236caa3f24a42cf7" },
    { "ML-KEM-768", 768, 1206,
      "c23e23dd3d485a9256cda09358a4a286e00b373db10761eadf99f710649ca31c",
      { 2498, 86, 2428, 3612, 84, 2424 },
      { "95738d2a0b7252a16b1474b9fb4e0c8ddaa6fe70db7903ade4a385909ee0d165",
        "67d4dc57d8f9e28816f4a3495abc48dd416b0da9bd1e1de4716ad0883b9ad6b8",
        "994f7473b34fad03c2b36a500af9002dad15afa50473cef5ea217325c7156f9e",
        "a2a809d585da59082474ad3eb7bdc6dc1c7ba9fc764c9ffc8787adacdc896c1d",
        "dfa3fc58db086593cf1c2234fe4106cf79a6ba7d58ebfd320a7c3745bde42fab",
        "bccdb78233f667d9dd59e4cc0f00cb88ada62826906790c1cbb9ce05d356f099" },
      "19b5b6fe6f000469f702e1a1dfbda498529ecd9e63e98b8645d6e6c557d27b05",
      "364f53a4f819b509bdbe845747b0dbe3b149220ac08b9c5a173b80a380094c2a",
      "f3186e7923b7163737b0c8044fc9a9d19d7034bb38bc0830b1a61d2cc7c65871",
      "9cddd089ffe70e3996e76f7c8d06746df34d07e8657bc0fcf2bb0e1c3084aea1" },
    { "ML-KEM-1024", 1024, 1590,
      "d2b7480ae006a14b37c1e8a8e45ea39022e32a9b1a7b90d594c84d869c6ac420",
      { 3266, 86, 3196, 4764, 84, 3192 },
      { "91004b1817d798dd3972439b8332a3a1b862f89c4e98b4ca2accd4f21afb9abb",
        "2c19d9d89d8c36ffb9eab0f3bb18dd90a47aaca3653bede67953173514d61234",
        "9cded660a340a6e7fdb93a4984e1e67764ade8e59be4db48b6921aeee5e6c795",
        "cb586781fa0f619b22e64ac14796b40e5ef8bf5cbba4bd87c8f310e49069863d",
        "174d5b92d5c998e84e5b7de6e3edeb3f7bb7e4342d4aec2f11657f2048090192",
        "42f8b8204c2252023429e93f89f150dff1282674f7b0ed59f214972b89cfe196" },
      "7784d59337be85e0d6a1440c9a8ce30a3fc99b0ffac87ee8251d5acfcdda3600",
      "00dcf5aaf23249d6fd77e45f52df5897ea625ffec8a808a5efa47aa5d1802114",
      "9e70bdfb429c990e76043f20e58bfb44f72aaa2a311d5248668a3a5b539e8e9d",
      "0ad8d1ea1b8dd788979b4379581218df9321bdce5567eca42ae6be7d395f1a54" },
};

#endif /* MLKEM_TEST_CODECS_EXPECTED_H */
