/// A value and where in the document it was written.
struct Located<Value> {
    let value: Value
    let pointer: String
}
