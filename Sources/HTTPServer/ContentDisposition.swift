import Foundation

/// `Content-Disposition: attachment` for a download named after a title a person wrote (RFC 6266):
/// the title's letters and digits (any script), `-` and `_`, every other run of characters one `-`,
/// so no name carries a path separator, a quote or a control. Browsers take the UTF-8 name from
/// `filename*`; `filename` is its ASCII fallback, accents folded ("São Paulo" gives `Sao-Paulo`).
public enum ContentDisposition {
    /// Characters of the title kept, at most: a file name stays readable in a downloads list.
    static let titleLength = 80

    /// The header's value for `title`.`fileExtension`, or `fallback`.`fileExtension` when the
    /// title keeps nothing (`fallback` and `fileExtension` are plain ASCII names already).
    public static func attachment(title: String, fileExtension: String, fallback: String) -> String {
        let name = fileName(title, keeping: { $0.isLetter || $0.isNumber })
        let ascii = fileName(title.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil),
                             keeping: { $0.isASCII && ($0.isLetter || $0.isNumber) })
        let fallbackName = (ascii.isEmpty ? fallback : ascii) + "." + fileExtension
        guard !name.isEmpty, name != ascii else { return "attachment; filename=\"\(fallbackName)\"" }
        return "attachment; filename=\"\(fallbackName)\"; filename*=UTF-8''\(percentEncoded(name + "." + fileExtension))"
    }

    /// `title`'s kept characters, `-` and `_`, each other run one `-`, none at either end.
    private static func fileName(_ title: String, keeping isKept: (Character) -> Bool) -> String {
        var name = ""
        for character in title where name.count < titleLength {
            if isKept(character) || character == "_" {
                name.append(character)
            } else if name.last.map({ $0 != "-" }) ?? false {
                name.append("-")
            }
        }
        while name.last == "-" { name.removeLast() }
        return name
    }

    /// RFC 5987's `value-chars`: ASCII letters, digits and `-._` as they are, every other byte `%XX`.
    private static func percentEncoded(_ name: String) -> String {
        name.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            let isPlain = byte < 0x80 && (Character(scalar).isLetter || Character(scalar).isNumber || "-._".unicodeScalars.contains(scalar))
            return isPlain ? String(Character(scalar)) : String(format: "%%%02X", byte)
        }.joined()
    }
}
