import HTTPServer

/// A numeric id from a path; anything else is a friendly 404, not a 500.
struct RecordID {
    let value: Int64

    init(_ text: String?, entity: String) throws {
        guard let text, let value = Int64(text), value > 0 else {
            throw HTTPError(.notFound, "There is no \(entity) “\(text ?? "")”.")
        }
        self.value = value
    }
}
