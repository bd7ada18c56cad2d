extension String {
    /// Right-aligned in a column `width` characters wide, for the benches' tables.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Left-aligned in a column `width` characters wide.
    func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
