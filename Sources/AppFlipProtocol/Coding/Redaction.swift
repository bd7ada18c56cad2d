import AppFlipCore
import Glibc

/// Hides secrets in URLs before they reach a log, a `watch` stream or another client's reply.
///
/// An App Flip result URL carries an authorization code; only the app that claims the URL may see it.
/// The value of every parameter whose name is secret by `SecretNames` (the rule the journal's
/// `LogRedaction` follows too: `code`, `authCode`, `access_token`, but not `error_code`) is replaced by
/// `SecretNames`' placeholder, `[redacted:NB]`, in the query and in the fragment (where implicit-grant
/// tokens travel).
public enum Redaction {
    /// `url` with each secret parameter's value replaced by its length; everything else untouched.
    ///
    /// Walks UTF-8 bytes, not characters: `?`, `#`, `&` and `=` are ASCII, so a byte is one wherever a URL
    /// parser sees one (a combining mark after `?` does not hide the query), and every hop's record pays
    /// for it. Through a pointer, into one byte array: walking `String.UTF8View` indices and building
    /// substrings cost the log writer's thread more than the rest of the record, as callgrind under an App
    /// Flip link with a query shows (docs/performance.md, "The handoff line").
    public static func redact(url: String) -> String {
        let shown: [UInt8]? =
            url.utf8.withContiguousStorageIfAvailable { redacted(UnsafeRawBufferPointer($0)) }
            ?? Array(url.utf8).withUnsafeBytes { redacted($0) }
        return shown.map { String(decoding: $0, as: UTF8.self) } ?? url
    }

    /// The redacted bytes; `nil` when the URL has neither query nor fragment, and so is shown as it is.
    private static func redacted(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        // The query runs from the first `?` to the first `#`; the fragment, from there, to the end.
        let fragment = find(ascii("#"), in: bytes, from: 0, to: bytes.count)
        let start = find(ascii("?"), in: bytes, from: 0, to: fragment)
        guard start < bytes.count else { return nil }
        var shown: [UInt8] = []
        shown.reserveCapacity(bytes.count + 16)
        shown.append(contentsOf: bytes[..<start])
        var index = start
        while index < bytes.count {
            let separator = bytes[index]
            shown.append(separator)
            index += 1
            let end = separator == ascii("?") ? fragment : bytes.count
            var parameter = index
            while true {
                let ampersand = find(ascii("&"), in: bytes, from: parameter, to: end)
                append(UnsafeRawBufferPointer(rebasing: bytes[parameter..<ampersand]), to: &shown)
                guard ampersand < end else { break }
                shown.append(ascii("&"))
                parameter = ampersand + 1
            }
            index = end
        }
        return shown
    }

    /// Appends `parameter`, its value replaced by its length when its name is a secret one.
    private static func append(_ parameter: UnsafeRawBufferPointer, to shown: inout [UInt8]) {
        let equals = find(ascii("="), in: parameter, from: 0, to: parameter.count)
        guard equals < parameter.count, isSecret(name: UnsafeRawBufferPointer(rebasing: parameter[..<equals])) else {
            shown.append(contentsOf: parameter)
            return
        }
        shown.append(contentsOf: parameter[...equals])
        SecretNames.appendPlaceholder(byteCount: parameter.count - equals - 1, to: &shown)
    }

    /// Where the first `byte` of `bytes[start..<end]` is, or `end`. `memchr`, because `firstIndex(of:)` on a
    /// slice pays per byte and the URL is searched for three bytes (callgrind shows it).
    private static func find(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        guard start < end, let found = memchr(bytes.baseAddress! + start, Int32(byte), end - start) else { return end }
        return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
    }

    /// The name is compared as every receiving app reads it, form-decoded: `co%64e` is `code`. A name that
    /// cannot be decoded (a malformed escape) is a secret too, since no one can say it is harmless.
    private static func isSecret(name: UnsafeRawBufferPointer) -> Bool {
        // A name with no escape and no `+` decodes to itself: most do, and are read without a copy.
        guard name.contains(where: { $0 == ascii("%") || $0 == ascii("+") }) else { return SecretNames.isSecret(name: name) }
        guard let decoded = PercentEncoding.formDecode(String(decoding: name, as: UTF8.self)) else { return true }
        return SecretNames.isSecret(name: decoded)
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
}
