/// A redirect target from a form: only a path on this site, never another origin.
func localRedirectPath(_ text: String?) -> String? {
    guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\") else { return nil }
    return text
}
