extension StringProtocol {
    /// Byte-for-byte equality. Swift's `==` compares canonical equivalence, under which `"\u{212A}"` (KELVIN
    /// SIGN) equals `"K"`: fine for text, wrong for identifiers and URIs that must match exactly.
    func isIdentical(to other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
