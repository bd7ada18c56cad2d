/// Text for XML 1.0, as the JUnit reports (`appflip audit --junit`, `appflip aasa check --junit`) write it.
package enum XMLText {
    /// `text` made safe for an attribute value or element content alike: the five markup characters escaped;
    /// tab, newline and carriage return as character references, which attribute-value normalization keeps;
    /// the characters XML 1.0 cannot hold at all (the other C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD.
    package static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t": escaped += "&#9;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
