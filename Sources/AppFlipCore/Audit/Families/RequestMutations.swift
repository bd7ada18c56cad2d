/// The mutations of a request's parameters (RFC 6749 §3.1): reordered and with an unrecognised parameter
/// added, which change nothing (the server MUST ignore a parameter it does not know); and a parameter sent
/// twice, Google's value beside a wrong one, in either order, which makes the request invalid and must give
/// the wrong value nothing (HTTP parameter pollution: a partner that checks one occurrence and uses the
/// other).
public enum RequestMutations {
    /// A request's parameters, in order.
    public typealias Fields = [(name: String, value: String)]

    /// One variant of a valid request.
    public struct Variant: Sendable {
        public var family: MutationFamily
        public var label: String
        public var fields: [Field]

        /// One parameter.
        public struct Field: Sendable, Hashable {
            public var name: String
            public var value: String
        }

        /// The parameters as tuples, in order.
        public var tuples: Fields { fields.map { ($0.name, $0.value) } }

        init(_ label: String, _ fields: Fields) {
            self.family = .parameters
            self.label = label
            self.fields = fields.map { Field(name: $0.name, value: $0.value) }
        }
    }

    /// Variants that must be answered as the valid request is: its parameters reversed, and an
    /// unrecognised parameter added.
    public static func equivalent(to fields: Fields) -> [Variant] {
        [
            Variant("the parameters in reverse order", Array(fields.reversed())),
            Variant("an unrecognised parameter added (RFC 6749 §3.1: ignored)", fields + [("appflip_audit_unknown", "1")]),
        ]
    }

    /// `name` sent twice, its valid value and `wrong` in either order.
    public static func polluted(_ fields: Fields, name: String, wrong: String, wrongLabel: String) -> [Variant] {
        guard let valid = fields.first(where: { $0.name == name }) else { return [] }
        let others = fields.filter { $0.name != name }
        return [
            Variant("\(name) twice, the valid one first, then \(wrongLabel)", others + [valid, (name, wrong)]),
            Variant("\(name) twice, \(wrongLabel) first, then the valid one", others + [(name, wrong), valid]),
        ]
    }
}
