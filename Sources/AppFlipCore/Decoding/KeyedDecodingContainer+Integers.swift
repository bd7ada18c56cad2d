extension KeyedDecodingContainer {
    /// `decodeIfPresent(Int.self, forKey:)`, except that a number that is no `Int` (`1.5`, `1e30`) is a type
    /// mismatch at `key`. FoundationEssentials' decoder throws its internal `JSONError` for such a number,
    /// which reaches the caller as a document that is not JSON with an empty coding path: the user would not
    /// learn the key to fix. The document was parsed whole before any container existed, so an error here
    /// that is no `DecodingError` can only be that number.
    package func decodeIntegerIfPresent(forKey key: Key) throws -> Int? {
        do {
            return try decodeIfPresent(Int.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.typeMismatch(Int.self, .init(codingPath: codingPath + [key], debugDescription: "the number is not an integer"))
        }
    }

    /// ``decodeIntegerIfPresent(forKey:)`` for a required key.
    package func decodeInteger(forKey key: Key) throws -> Int {
        guard let integer = try decodeIntegerIfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the key is missing"))
        }
        return integer
    }
}
