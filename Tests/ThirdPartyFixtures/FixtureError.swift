/// A third-party fixture could not be set up, started or signed in to; the description says what it wrote.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
