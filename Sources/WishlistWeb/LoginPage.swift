import HTTPServer
import Mustache

/// The sign-in page (`/login`), shown when the server has a password: one password field,
/// the reason the last attempt failed, and the page to come back to once signed in.
struct LoginPage {
    let pages: PageRenderer

    func render(_ prompt: PasswordProtection.LoginPrompt, for request: Request) throws -> Response {
        var context: [String: MustacheValue] = [
            "action": .string(prompt.action),
            "passwordField": .string(PasswordProtection.passwordFieldName),
        ]
        if let message = prompt.message { context["error"] = .string(message) }
        if let returnPath = prompt.returnPath {
            context["return"] = ["field": .string(PasswordProtection.returnFieldName), "path": .string(returnPath)]
        }
        return try pages.page("login", for: request, tab: nil, status: prompt.status, context)
    }
}
