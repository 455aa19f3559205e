/// A redirect target from a form or a query (`return=`): only a path on this site, never another origin.
/// Browsers remove tabs and newlines from a URL and read `\` as `/`, so `/\t/evil.example`
/// would leave for `//evil.example`: any control character or backslash is refused.
public func localRedirectPath(_ text: String?) -> String? {
    guard let text, text.hasPrefix("/"), !text.hasPrefix("//"),
          !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else { return nil }
    return text
}
