/// Turns pattern text into `Pattern`s, resolving `$(name)` against the document's `substitutionVariables`
/// and the predefined variables. One compiler serves one document, so each variable is compiled once.
struct PatternCompiler {
    enum Failure: Error, Sendable {
        case unterminatedSubstitution
        case undefinedVariable(String)
    }

    /// The predefined variables. Custom variables of the same name replace them (and are warned about).
    static let predefinedNames: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    private let variables: [String: [String]]
    private var compiled: [VariableKey: Alternatives] = [:]

    private struct VariableKey: Hashable {
        let name: String
        let foldsCase: Bool
    }

    init(variables: [String: [String]]) {
        self.variables = variables
    }

    /// Compiles `text`, folding its literal text to lower case when the rule is case-insensitive.
    mutating func compile(_ text: String, foldingCase foldsCase: Bool) throws(Failure) -> Pattern {
        var builder = TokenBuilder(foldsCase: foldsCase)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "(") {
                guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: ")")) else {
                    throw .unterminatedSubstitution
                }
                let name = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
                builder.append(.oneOf(try alternatives(for: name, foldingCase: foldsCase)))
                index = close + 1
            } else {
                builder.append(byte: byte)
                index += 1
            }
        }
        return Pattern(tokens: builder.finish())
    }

    private mutating func alternatives(for name: String, foldingCase foldsCase: Bool) throws(Failure) -> Alternatives {
        let key = VariableKey(name: name, foldsCase: foldsCase)
        if let known = compiled[key] { return known }
        let result: Alternatives
        if let values = variables[name] {
            result = Alternatives(values: values.map { Self.valueTokens($0, foldingCase: foldsCase) })
        } else if let predefined = Self.predefined[name] {
            result = foldsCase ? predefined.folded : predefined.cased
        } else {
            throw .undefinedVariable(name)
        }
        compiled[key] = result
        return result
    }

    /// A substitution value is itself a pattern (`a*z`), but never refers to another variable: `$(` there is
    /// reported as AASA141 and the document refused, so here it is plain text.
    private static func valueTokens(_ value: String, foldingCase foldsCase: Bool) -> [Pattern.Token] {
        var builder = TokenBuilder(foldsCase: foldsCase)
        for byte in value.utf8 { builder.append(byte: byte) }
        return builder.finish()
    }

    /// Compiled once per process: `$(region)` and `$(lang)` hold hundreds of values.
    private static let predefined: [String: (cased: Alternatives, folded: Alternatives)] = {
        let upper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let lower = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        let digits = (UInt8(ascii: "0")...UInt8(ascii: "9")).map { String(UnicodeScalar($0)) }
        let lists: [String: [String]] = [
            "alpha": upper + lower,
            "upper": upper,
            "lower": lower,
            "alnum": upper + lower + digits,
            "digit": digits,
            "xdigit": digits + ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"],
            "region": ISOCodes.regions,
            "lang": ISOCodes.languages,
        ]
        return lists.mapValues { values in
            (
                Alternatives(values: values.map { valueTokens($0, foldingCase: false) }),
                Alternatives(values: values.map { valueTokens($0, foldingCase: true) })
            )
        }
    }()
}

/// Accumulates literal bytes between wildcards, folding each literal run as a whole (folding is per scalar).
private struct TokenBuilder {
    let foldsCase: Bool
    private var tokens: [Pattern.Token] = []
    private var literal: [UInt8] = []

    init(foldsCase: Bool) {
        self.foldsCase = foldsCase
    }

    mutating func append(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "*"): append(.anyRun)
        case UInt8(ascii: "?"): append(.anyCharacter)
        default: literal.append(byte)
        }
    }

    mutating func append(_ token: Pattern.Token) {
        flushLiteral()
        // `**` means the same as `*`; one token keeps the glob's backtracking short.
        if case .anyRun = token, let last = tokens.last, case .anyRun = last { return }
        tokens.append(token)
    }

    mutating func finish() -> [Pattern.Token] {
        flushLiteral()
        return tokens
    }

    private mutating func flushLiteral() {
        guard !literal.isEmpty else { return }
        tokens.append(.literal(foldsCase ? TextTransform.caseFolded(literal) : literal))
        literal.removeAll(keepingCapacity: true)
    }
}
