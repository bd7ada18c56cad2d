import AppFlipCore

/// The byte scanner behind `LogRedaction.scrub(_:)`.
///
/// One pass over the UTF-8 bytes, stopping only at `=`, `:` and the word `Bearer`; text with nothing to
/// replace is returned as it came, without a copy. Hand-written rather than `Regex`, which costs many times
/// more per log line (`Benchmarks/LogBenchmark` shows the scrubbing's cost).
struct CredentialScrubber {
    let fingerprint: (String) -> String

    func scrub(_ text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var output: [UInt8] = []
            let unchanged = replaceCredentials(in: bytes, into: &output)
            guard unchanged > 0 else { return nil }
            output += bytes[unchanged...]
            return String(decoding: output, as: UTF8.self)
        } ?? text
    }

    /// Appends the scrubbed UTF-8 text to `output`.
    func scrub(utf8 bytes: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]) {
        let unchanged = replaceCredentials(in: bytes, into: &output)
        output += bytes[unchanged...]
    }

    /// Appends `bytes` up to the end of their last credential, each credential replaced, to `output`.
    /// - Returns: where the tail left to copy starts; 0 when nothing needed replacing.
    private func replaceCredentials(in bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Int {
        var copied = 0
        var index = 0
        func replace(_ range: Range<Int>) {
            output += bytes[copied..<range.lowerBound]
            output += fingerprint(String(decoding: bytes[range], as: UTF8.self)).utf8
            copied = range.upperBound
        }
        while index < bytes.count {
            // Eight bytes at a time over text that holds none of the bytes a credential starts at (most of
            // every value), then straight to the first one that does. Byte by byte, this scan was a third of
            // the handoff record's redaction.
            if index + 8 <= bytes.count {
                let starts = Self.credentialStarts(ByteWord(bytes, at: index))
                guard starts != 0 else {
                    index += 8
                    continue
                }
                index += ByteWord.firstMarked(starts)
            }
            let byte = bytes[index]
            if byte == ascii("="), let value = assignmentValue(at: index, in: bytes) {
                replace(value)
                index = value.upperBound
            } else if byte == ascii(":"), let value = memberValue(at: index, in: bytes) {
                replace(value)
                index = value.upperBound
            } else if byte == ascii("B") || byte == ascii("b"), let token = bearerToken(at: index, in: bytes) {
                replace(token)
                index = token.upperBound
            } else {
                index += 1
            }
        }
        return copied
    }

    /// The bytes of eight where the scan stops, exactly: `=`, `:`, `B` and `b`.
    private static func credentialStarts(_ word: ByteWord) -> UInt64 {
        word.marks(ascii("=")) | word.marks(ascii(":")) | word.foldingCase.marks(ascii("b"))
    }

    /// `name=value`: the value (quotes included) when the name is sensitive. The name is the longest run
    /// of name characters before `=`, whatever precedes it (`?code=`, `(code=`, `,code=`).
    private func assignmentValue(at equals: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = equals
        while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
        guard start < equals, isSecretName(start..<equals, in: bytes) else { return nil }
        let valueStart = equals + 1
        if valueStart < bytes.count, bytes[valueStart] == ascii("\"") {
            return valueStart..<min(closingQuote(after: valueStart, in: bytes) + 1, bytes.count)
        }
        var end = valueStart
        while end < bytes.count, !isValueTerminator(bytes[end]) { end += 1 }
        // Nothing to hide, as in a URL the daemon already redacted (`code=[redacted:37B]`).
        return end > valueStart ? valueStart..<end : nil
    }

    /// `"name": "value"`, `name: "value"`, `name: Optional("value")` (the value inside the quotes), and
    /// `Authorization: [scheme] credential` (the credential), when the name is sensitive.
    private func memberValue(at colon: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var end = colon
        while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        let quotedName = end > 0 && bytes[end - 1] == ascii("\"")
        if quotedName { end -= 1 }
        var start = end
        while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
        guard start < end, !quotedName || (start > 0 && bytes[start - 1] == ascii("\"")) else { return nil }
        guard isSecretName(start..<end, in: bytes) else { return nil }

        var cursor = skipSpaces(from: colon + 1, in: bytes)
        if hasPrefix("Optional(", at: cursor, in: bytes) { cursor += 9 }
        if cursor < bytes.count, bytes[cursor] == ascii("\"") {
            return cursor + 1..<closingQuote(after: cursor, in: bytes)
        }
        guard String(decoding: bytes[start..<end], as: UTF8.self).lowercased() == "authorization" else { return nil }
        // An HTTP header: an optional scheme word, then the credential.
        var schemeEnd = cursor
        while schemeEnd < bytes.count, isLetter(bytes[schemeEnd]) { schemeEnd += 1 }
        if schemeEnd > cursor, schemeEnd < bytes.count, isSpace(bytes[schemeEnd]) {
            cursor = skipSpaces(from: schemeEnd, in: bytes)
        }
        let credentialEnd = token68End(from: cursor, in: bytes)
        return credentialEnd > cursor ? cursor..<credentialEnd : nil
    }

    /// Whether the name at `range` is a secret one, by the vocabulary the URL redaction shares.
    private func isSecretName(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        SecretNames.isSecret(name: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
    }

    /// The token after a `Bearer` or `bearer` that starts a word (RFC 6750's b64token).
    private func bearerToken(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard hasPrefix("earer", at: start + 1, in: bytes), start == 0 || !isNameByte(bytes[start - 1]) else {
            return nil
        }
        let afterWord = start + 6
        guard afterWord < bytes.count, isSpace(bytes[afterWord]) else { return nil }
        let tokenStart = skipSpaces(from: afterWord, in: bytes)
        let tokenEnd = token68End(from: tokenStart, in: bytes)
        return tokenEnd > tokenStart ? tokenStart..<tokenEnd : nil
    }

    /// The index of the quote that closes the one at `open`, skipping backslash escapes; the end of the
    /// text when it is never closed, so that an unterminated secret is still covered.
    private func closingQuote(after open: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = open + 1
        while index < bytes.count {
            if bytes[index] == ascii("\\") {
                index += 2
            } else if bytes[index] == ascii("\"") {
                return index
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    private func token68End(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = start
        while end < bytes.count, isLetter(bytes[end]) || isDigit(bytes[end]) || "-._~+/".utf8.contains(bytes[end]) {
            end += 1
        }
        while end < bytes.count, bytes[end] == ascii("=") { end += 1 }
        return end
    }

    private func skipSpaces(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    private func hasPrefix(_ prefix: StaticString, at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard start >= 0, start + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == ascii("_") || byte == ascii(".") || byte == ascii("-")
    }
    private func isValueTerminator(_ byte: UInt8) -> Bool { "&#;,\"'<>()[]{}".utf8.contains(byte) || isSpace(byte) }
    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= ascii("a") && (byte | 0x20) <= ascii("z") }
    private func isDigit(_ byte: UInt8) -> Bool { byte >= ascii("0") && byte <= ascii("9") }
}

private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
