import HTTPServer

/// One input: the same text as a query string, a `Cookie` header and a `Host` header, parsed
/// the way the server parses every request (url-encoded forms share the query parser).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPFields(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var headers = HTTPHeaders()
    headers.add("Cookie", text)
    headers.add("Host", text)
    let request = Request(method: .get, path: "/", rawQuery: text, headers: headers)
    for (name, value) in request.query {
        // Decoding refuses NUL: no field may smuggle one into a path or an SQL string.
        precondition(!name.utf8.contains(0) && !value.utf8.contains(0), "a decoded field holds a NUL byte")
    }
    for (name, value) in request.cookies {
        precondition(!name.isEmpty && !name.contains(";") && !value.contains(";"), "a cookie was split wrongly")
    }
    if let host = request.hostName {
        precondition(host == host.lowercased(), "host names are compared lowercased")
    }
    return 0
}
