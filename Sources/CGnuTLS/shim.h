#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>

/* Macros and a variable Swift does not import as callable: wrapped for the certificate maker (HTTPServer). */

/* The key size argument that asks gnutls_x509_privkey_generate for an ECDSA key on P-256. */
static inline unsigned int wl_gnutls_p256_bits(void) {
    return GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1);
}

/* Frees what an export2 call allocated into the datum. */
static inline void wl_gnutls_free_datum(gnutls_datum_t *datum) {
    gnutls_free(datum->data);
    datum->data = NULL;
    datum->size = 0;
}
