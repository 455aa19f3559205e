import CGnuTLS
import Foundation
import Glibc

/// A certificate and its private key, both PEM, for serving HTTPS (`Server.Configuration.tls`).
public struct TLSConfiguration: Sendable {
    public var certificatePEM: String
    public var keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// Read from two PEM files.
    public init(certificateFile: String, keyFile: String) throws(TLSError) {
        guard let certificate = try? String(contentsOfFile: certificateFile, encoding: .utf8) else {
            throw TLSError("cannot read the certificate file \(certificateFile)")
        }
        guard let key = try? String(contentsOfFile: keyFile, encoding: .utf8) else {
            throw TLSError("cannot read the key file \(keyFile)")
        }
        self.init(certificatePEM: certificate, keyPEM: key)
    }

    /// The certificate's SHA-256 fingerprint as browsers show it: uppercase hex pairs joined by colons.
    public func fingerprint() throws(TLSError) -> String {
        var certificate: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&certificate), "gnutls_x509_crt_init")
        defer { gnutls_x509_crt_deinit(certificate) }
        var pem = Array(certificatePEM.utf8)
        let imported = pem.withUnsafeMutableBufferPointer { bytes in
            var datum = gnutls_datum_t(data: bytes.baseAddress, size: UInt32(bytes.count))
            return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_PEM)
        }
        try check(imported, "the certificate is not PEM")
        var digest = [UInt8](repeating: 0, count: 32)
        var size = digest.count
        try check(gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, &digest, &size), "fingerprint")
        return digest.prefix(size).map { String(format: "%02X", $0) }.joined(separator: ":")
    }
}

public struct TLSError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Throws when a GnuTLS call returned an error code.
func check(_ result: Int32, _ what: String) throws(TLSError) {
    guard result >= 0 else { throw TLSError("\(what): \(String(cString: gnutls_strerror(result)))") }
}
