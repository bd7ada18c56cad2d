extension Decoder {
    /// The keyed container of a configuration object, after refusing any key that `Key` does not have: a
    /// typo in a security setting must not silently fall back to a default. The error names the key and
    /// the known keys, or, for another spelling of a known key (`redirect_uris`), exactly what to write.
    public func strictContainer<Key: CodingKey & CaseIterable>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try self.container(keyedBy: AnyConfigurationKey.self)
        let known = Key.allCases.map(\.stringValue)
        for key in container.allKeys.map(\.stringValue).sorted() where !known.contains(key) {
            let message =
                ConfigurationKeyStyle.spelling(of: key, among: known).map(ConfigurationKeyStyle.rename)
                ?? "unknown key; known keys are \(known.joined(separator: ", "))"
            throw ConfigurationError(at: codingPath + [AnyConfigurationKey(stringValue: key)], message)
        }
        return try self.container(keyedBy: Key.self)
    }
}

/// Any key of a JSON object, to list the keys a file has.
private struct AnyConfigurationKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
