import AppFlipCore

/// Hides secrets in URLs before they reach a log, a `watch` stream or another client's reply.
///
/// An App Flip result URL carries an authorization code; only the app that claims the URL may see it.
/// Values of secret-bearing parameters are replaced by their length, in the query and in the fragment
/// (where implicit-grant tokens travel).
public enum Redaction {
    /// Parameter names whose values are secrets, compared case-insensitively after form decoding.
    public static let secretParameters: Set<String> = [
        "code", "access_token", "refresh_token", "id_token", "token", "client_secret", "password", "secret",
        "assertion", "client_assertion", "code_verifier",
    ]

    /// `url` with each secret parameter's value replaced by its length; everything else untouched.
    ///
    /// Walks UTF-8 bytes, not characters: `?`, `#`, `&` and `=` are ASCII, so a byte is one wherever a URL
    /// parser sees one (a combining mark after `?` does not hide the query), and every hop's record pays
    /// for it (a walk by characters was a tenth of the daemon's instructions per handoff at `info`).
    public static func redact(url: String) -> String {
        // Most URLs have neither query nor fragment: seen through a pointer, not `String.Index`es.
        let plain = url.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 == ascii("?") || $0 == ascii("#") } }
        if plain == true { return url }
        let bytes = url.utf8
        guard let start = bytes.firstIndex(where: { $0 == ascii("?") || $0 == ascii("#") }) else { return url }
        var result = String(url[..<start])
        var rest = url.utf8[start...]
        while let separator = rest.first {
            rest = rest.dropFirst()
            let end = separator == ascii("?") ? (rest.firstIndex(of: ascii("#")) ?? rest.endIndex) : rest.endIndex
            result.unicodeScalars.append(Unicode.Scalar(separator))
            var parameters = rest[..<end]
            while true {
                let ampersand = parameters.firstIndex(of: ascii("&")) ?? parameters.endIndex
                result += redact(parameter: Substring(parameters[..<ampersand]))
                guard ampersand < parameters.endIndex else { break }
                result.unicodeScalars.append("&")
                parameters = parameters[parameters.index(after: ampersand)...]
            }
            rest = rest[end...]
        }
        return result
    }

    /// The name is compared as every receiving app reads it, form-decoded: `co%64e` and `Code` are `code`.
    /// A name that cannot be decoded (a malformed escape) is redacted too, since no one can say it is harmless.
    private static func redact(parameter: Substring) -> String {
        guard let equals = parameter.utf8.firstIndex(of: ascii("=")) else { return String(parameter) }
        let name = parameter[..<equals]
        if let decoded = PercentEncoding.formDecode(name), !secretParameters.contains(decoded.lowercased()) {
            return String(parameter)
        }
        let value = parameter.utf8[parameter.utf8.index(after: equals)...]
        return "\(name)=[redacted:\(value.count)B]"
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
}
