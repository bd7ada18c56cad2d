/// The bounds on what an intent or a result carries. Android bounds the same things by the binder's 1 MB
/// transaction buffer (`TransactionTooLargeException`); appflipd bounds each part, so that a refusal names
/// the extra at fault, and the line limit (`maxLineBytes`) bounds the whole.
public enum IntentLimits {
    /// The longest action, in UTF-8 bytes.
    public static let maxActionBytes = 256
    /// The most extras in one intent or result.
    public static let maxExtras = 64
    /// The longest extra name, in UTF-8 bytes.
    public static let maxNameBytes = 256
    /// The most elements in one `stringArray` or `stringArrayList`.
    public static let maxElements = 256
    /// The most UTF-8 bytes of names and strings in one intent's or result's extras together.
    public static let maxExtrasBytes = 64 << 10

    /// Why `extras` break a bound, with the extra at fault as the field, or nil.
    public static func problem(with extras: [String: IntentExtra]) -> IntentProblem? {
        guard extras.count <= maxExtras else { return IntentProblem(field: nil, "has \(extras.count) extras, more than \(maxExtras)") }
        var total = 0
        for name in extras.keys.sorted() {
            let extra = extras[name]!
            if name.isEmpty { return IntentProblem(field: name, "an extra's name must not be empty") }
            if name.utf8.count > maxNameBytes { return IntentProblem(field: name, "the name is longer than \(maxNameBytes) bytes") }
            let strings = extra.strings
            if strings.count > maxElements {
                return IntentProblem(field: name, "has \(strings.count) elements, more than \(maxElements)")
            }
            total += name.utf8.count + strings.reduce(0) { $0 + $1.utf8.count }
            if total > maxExtrasBytes {
                return IntentProblem(field: name, "the extras' names and strings are over \(maxExtrasBytes) bytes together")
            }
        }
        return nil
    }
}
