/// Refuses requests whose `Host` is not one of this server's names (421), which defeats DNS
/// rebinding: a hostile page's name resolving to 127.0.0.1 still arrives with its own name.
/// The port is not compared: the host name is what a rebinding attacker cannot fake.
/// A head check: give it to `Server.Configuration.headChecks`, so a body is never read first.
public struct HostValidation: HeadCheck {
    public static let localNames = ["localhost", "127.0.0.1", "[::1]"]

    private let allowedHosts: Set<String>

    /// `additionalHosts` are names besides the local ones, e.g. a LAN name from configuration.
    public init(additionalHosts: [String] = []) {
        allowedHosts = Set((Self.localNames + additionalHosts).map { Request.hostName(fromAuthority: $0) })
    }

    public func check(head request: Request) throws(HTTPError) {
        guard let host = request.hostName, allowedHosts.contains(host) else {
            throw HTTPError(.misdirectedRequest, "This server does not answer for that host name.")
        }
    }
}

extension Request {
    /// It came to one of `HostValidation.localNames`: an address made from `origin` works on this
    /// machine alone.
    public var cameToLocalName: Bool {
        hostName.map(HostValidation.localNames.contains) ?? true
    }
}
