/// The nesting and the size of an XML property list, measured before Foundation parses it: every `<dict>` and
/// `<array>` start tag opens a level and its end tag closes it, and every start tag is a value (a key counts as
/// one); comments, CDATA sections, processing instructions and the DOCTYPE are skipped, and quoted attribute
/// values are read whole, so no `>` or `<` in them is taken for a tag. Anything else malformed is left to
/// Foundation, which refuses it.
enum XMLPropertyListShape {
    static func check(_ bytes: [UInt8], file: String, base: Int, maximumDepth: Int, maximumValues: Int) throws(ArtifactError) {
        var depth = 0
        var values = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            if let skipped = skipMarkup(bytes, at: open) {
                index = skipped
                continue
            }
            let closing = bytes.indices.contains(open + 1) && bytes[open + 1] == UInt8(ascii: "/")
            let nameStart = closing ? open + 2 : open + 1
            var nameEnd = nameStart
            while nameEnd < bytes.count, !isNameEnd(bytes[nameEnd]) { nameEnd += 1 }
            guard let tagEnd = endOfTag(bytes, from: nameEnd) else { return }
            let name = bytes[nameStart..<nameEnd]
            if !closing {
                values += 1
                guard values <= maximumValues else {
                    throw ArtifactError("property list", file: file, offset: base + open, "more than \(maximumValues) values")
                }
            }
            if name.elementsEqual("dict".utf8) || name.elementsEqual("array".utf8) {
                if closing {
                    depth -= 1
                } else if bytes[tagEnd - 1] != UInt8(ascii: "/") {
                    depth += 1
                    guard depth <= maximumDepth else {
                        throw ArtifactError(
                            "property list",
                            file: file,
                            offset: base + open,
                            "arrays and dictionaries nest deeper than \(maximumDepth) levels"
                        )
                    }
                }
            }
            index = tagEnd + 1
        }
    }

    /// The index after a comment, CDATA section, processing instruction or declaration starting at `open`; nil
    /// when `open` starts an element tag. Unterminated markup runs to the end.
    private static func skipMarkup(_ bytes: [UInt8], at open: Int) -> Int? {
        let rest = bytes[open...]
        if rest.starts(with: "<!--".utf8) { return end(of: "-->", in: bytes, from: open + 4) }
        if rest.starts(with: "<![CDATA[".utf8) { return end(of: "]]>", in: bytes, from: open + 9) }
        if rest.starts(with: "<?".utf8) { return end(of: "?>", in: bytes, from: open + 2) }
        if rest.starts(with: "<!".utf8) {
            // A DOCTYPE's internal subset, in brackets, may itself hold `>`.
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { return bytes.count }
            if let bracket = bytes[open..<close].firstIndex(of: UInt8(ascii: "[")) {
                return end(of: "]>", in: bytes, from: bracket)
            }
            return close + 1
        }
        return nil
    }

    private static func end(of terminator: String, in bytes: [UInt8], from start: Int) -> Int {
        let pattern = Array(terminator.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index + pattern.count }
            index += 1
        }
        return bytes.count
    }

    /// The index of the `>` that ends a tag, reading quoted attribute values whole.
    private static func endOfTag(_ bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        for index in start..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
        }
        return nil
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
