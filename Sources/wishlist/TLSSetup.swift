import Foundation
import Glibc
import HTTPServer

/// Which certificate `serve` uses, if any: the owner's (`--tls-cert`/`--tls-key`), else one it
/// made itself on first use and keeps in the data folder, readable by the owner only, so the
/// fingerprint the owner checked in the browser stays the same from one start to the next.
enum TLSSetup {
    static let certificateFileName = "tls-certificate.pem"
    static let keyFileName = "tls-key.pem"

    /// nil: plain HTTP. Beyond loopback a password is sent over the network, so `auto` turns TLS on.
    static func configuration(for invocation: Invocation) throws -> TLSConfiguration? {
        guard isWanted(by: invocation) else { return nil }
        if let certificate = invocation.tlsCertificateFile, let key = invocation.tlsKeyFile {
            return try TLSConfiguration(certificateFile: certificate, keyFile: key)
        }
        return try selfSigned(in: invocation.dataDirectory, host: invocation.host, allowedHosts: invocation.allowedHosts)
    }

    static func isWanted(by invocation: Invocation) -> Bool {
        switch invocation.tls {
        case .off: false
        case .on: true
        case .auto: !ListenPolicy.isLoopback(invocation.host) || invocation.tlsCertificateFile != nil
        }
    }

    private static func selfSigned(in folder: String, host: String, allowedHosts: [String]) throws -> TLSConfiguration {
        let certificateFile = folder + "/" + certificateFileName, keyFile = folder + "/" + keyFileName
        if FileManager.default.fileExists(atPath: certificateFile) {
            return try TLSConfiguration(certificateFile: certificateFile, keyFile: keyFile)
        }
        let isWildcard = host == "0.0.0.0" || host == "::"
        let names = ["localhost", "127.0.0.1", "::1", machineName()].compactMap { $0 }
            + (isWildcard ? [] : [host]) + allowedHosts
        let made = try TLSConfiguration.selfSigned(names: names)
        // The key first: a certificate on disk without its key would be taken as complete next time.
        try write(made.keyPEM, to: keyFile)
        try write(made.certificatePEM, to: certificateFile)
        return made
    }

    /// Created 0600 from the start: the key is never readable by others, not even for a moment.
    private static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Invocation.UsageError(description: "Cannot write \(path): \(String(cString: strerror(errno))).")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.synchronize()
    }

    /// This machine's name, which other machines on the network may use to reach it.
    private static func machineName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return nil }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
