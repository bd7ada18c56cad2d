/// The value shapes several configuration files share, each refused with the field it is in. Values are
/// never quoted in these errors: they may be secrets.
extension KeyedDecodingContainer {
    /// Decodes a string that must not be empty, such as an app id or a client secret.
    public func decodeNonEmptyString(forKey key: Key) throws -> String {
        let string = try decode(String.self, forKey: key)
        guard !string.isEmpty else { throw ConfigurationError(at: codingPath + [key], "must be a non-empty string") }
        return string
    }

    /// One string or a non-empty array of them, none empty: `"a"` is `["a"]`.
    public func decodeStringList(forKey key: Key) throws -> [String] {
        if let string = try? decode(String.self, forKey: key) {
            guard !string.isEmpty else { throw ConfigurationError(at: codingPath + [key], "must be a non-empty string") }
            return [string]
        }
        guard let strings = try? decode([String].self, forKey: key), !strings.isEmpty else {
            throw ConfigurationError(at: codingPath + [key], "must be a string or a non-empty array of strings")
        }
        if let empty = strings.firstIndex(where: \.isEmpty) {
            throw ConfigurationError(at: codingPath + [key, ArrayIndexKey(empty)], "must be a non-empty string")
        }
        return strings
    }

    /// A time limit: more than 0 and at most an hour.
    public func decodeSecondsIfPresent(forKey key: Key) throws -> Double? {
        guard let seconds = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard seconds > 0, seconds <= 3600 else {
            throw ConfigurationError(at: codingPath + [key], "must be a number of seconds, more than 0 and at most 3600")
        }
        return seconds
    }
}

/// An array element's position in a coding path.
private struct ArrayIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
