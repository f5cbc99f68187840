/* sha256.h: SHA-256 (FIPS 180-4), for the build's content hash (build.h): the
 * build is reused only when the hash of what it was made from is the same.
 * A hash, not a byte-for-byte snapshot, so that the build folder keeps 64
 * characters per build instead of a copy of every course file it depends on. */
#ifndef SCANLAB_SHA256_H
#define SCANLAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256 {
  uint32_t h[8];
  uint64_t bytes;    /* fed so far */
  uint8_t block[64]; /* the block being filled */
  size_t used;
} sha256;

void sha256_init(sha256 *s);
void sha256_add(sha256 *s, const void *data, size_t n);
/* A string and its terminating NUL, so that "ab","c" and "a","bc" differ. */
void sha256_add_str(sha256 *s, const char *text);
/* Ends the hash: 64 lowercase hex digits and a NUL into hex[65]. */
void sha256_hex(sha256 *s, char hex[65]);

#endif
