/// A string compared and hashed byte for byte. Swift's `String` compares by canonical equivalence, so the
/// Kelvin sign (U+212A) equals `K` and `e` with a combining accent equals `é`: a code, token, session or client
/// id looked up by `String` would match a value the server never issued. Every such lookup goes through this.
struct Exact: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ text: some StringProtocol) {
        bytes = Array(text.utf8)
    }
}
