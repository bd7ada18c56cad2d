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
    public static func redact(url: String) -> String {
        guard let start = url.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return url }
        var result = String(url[..<start])
        var rest = url[start...]
        while let separator = rest.first {
            rest = rest.dropFirst()
            let end = separator == "?" ? (rest.firstIndex(of: "#") ?? rest.endIndex) : rest.endIndex
            result.append(separator)
            result += rest[..<end].split(separator: "&", omittingEmptySubsequences: false).map(redact(parameter:)).joined(separator: "&")
            rest = rest[end...]
        }
        return result
    }

    /// The name is compared as every receiving app reads it, form-decoded: `co%64e` and `Code` are `code`.
    /// A name that cannot be decoded (a malformed escape) is redacted too, since no one can say it is harmless.
    private static func redact(parameter: Substring) -> String {
        guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
        let name = parameter[..<equals]
        if let decoded = PercentEncoding.formDecode(name), !secretParameters.contains(decoded.lowercased()) {
            return String(parameter)
        }
        let value = parameter[parameter.index(after: equals)...]
        return "\(name)=[redacted:\(value.utf8.count)B]"
    }
}
