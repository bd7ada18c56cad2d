/// RFC 6901 JSON pointers, built while walking a document.
enum JSONPointer {
    /// `pointer` extended by one object key or array index, with `~` and `/` escaped as the RFC requires.
    static func appending(_ token: String, to pointer: String) -> String {
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return pointer + "/" + escaped
    }

    static func appending(_ index: Int, to pointer: String) -> String {
        pointer + "/" + String(index)
    }
}
