import CGnuTLS
import CMicroHTTPD
import Foundation
import Glibc

extension TLSConfiguration {
    /// A new ECDSA P-256 key and a certificate it signs itself, valid for `names` (DNS names or
    /// IP addresses) for ten years: for a server with no certificate from an authority, whose
    /// owner checks the fingerprint in the browser once instead.
    public static func selfSigned(names: [String], now: Date = Date()) throws(TLSError) -> TLSConfiguration {
        var key: gnutls_x509_privkey_t?
        try check(gnutls_x509_privkey_init(&key), "gnutls_x509_privkey_init")
        defer { gnutls_x509_privkey_deinit(key) }
        try check(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, wl_gnutls_p256_bits(), 0), "key generation")

        var certificate: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&certificate), "gnutls_x509_crt_init")
        defer { gnutls_x509_crt_deinit(certificate) }
        try check(gnutls_x509_crt_set_version(certificate, 3), "version")
        var serial = [UInt8](repeating: 0, count: 16)
        guard getrandom(&serial, serial.count, 0) == serial.count else { throw TLSError("no random bytes for the serial") }
        serial[0] &= 0x7f  // a positive number
        try check(gnutls_x509_crt_set_serial(certificate, serial, serial.count), "serial")
        // An hour back, so a client whose clock is slightly behind accepts it at once.
        let start = time_t(now.timeIntervalSince1970) - 3600
        try check(Int32(gnutls_x509_crt_set_activation_time(certificate, start)), "activation time")
        try check(Int32(gnutls_x509_crt_set_expiration_time(certificate, start + 10 * 365 * 24 * 3600)), "expiration time")
        let commonName = names.first ?? "localhost"
        try check(gnutls_x509_crt_set_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, commonName,
                                                UInt32(commonName.utf8.count)), "name")
        for name in names { try addAlternativeName(name, to: certificate) }
        try check(gnutls_x509_crt_set_key(certificate, key), "key")
        try check(gnutls_x509_crt_set_basic_constraints(certificate, 0, -1), "basic constraints")
        try check(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "key usage")
        try check(gnutls_x509_crt_set_key_purpose_oid(certificate, GNUTLS_KP_TLS_WWW_SERVER, 0), "key purpose")
        try check(gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0), "signing")

        var certificatePEM = gnutls_datum_t(), keyPEM = gnutls_datum_t()
        defer {
            wl_gnutls_free_datum(&certificatePEM)
            wl_gnutls_free_datum(&keyPEM)
        }
        try check(gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &certificatePEM), "certificate export")
        try check(gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &keyPEM), "key export")
        return TLSConfiguration(certificatePEM: text(certificatePEM), keyPEM: text(keyPEM))
    }

    /// An IP address goes in as its bytes, anything else as a DNS name.
    private static func addAlternativeName(_ name: String, to certificate: gnutls_x509_crt_t?) throws(TLSError) {
        var ipv4 = in_addr(), ipv6 = in6_addr()
        let result: Int32
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            result = gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, &ipv4,
                                                          UInt32(MemoryLayout<in_addr>.size), UInt32(GNUTLS_FSAN_APPEND))
        } else if inet_pton(AF_INET6, name, &ipv6) == 1 {
            result = gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, &ipv6,
                                                          UInt32(MemoryLayout<in6_addr>.size), UInt32(GNUTLS_FSAN_APPEND))
        } else {
            result = gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, name,
                                                          UInt32(name.utf8.count), UInt32(GNUTLS_FSAN_APPEND))
        }
        try check(result, "alternative name \(name)")
    }

    private static func text(_ datum: gnutls_datum_t) -> String {
        String(decoding: UnsafeBufferPointer(start: datum.data, count: Int(datum.size)), as: UTF8.self)
    }
}
