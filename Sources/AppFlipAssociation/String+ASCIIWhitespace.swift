extension StringProtocol {
    /// Without leading and trailing spaces and tabs, as HTTP header values are compared (RFC 9110 §5.5).
    var trimmingASCIIWhitespace: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<Swift.max(start, end)]
    }
}
