/// `WWW-Authenticate` as RFC 9110 §11.2 and §11.6.1 write it: a list of challenges, each an auth-scheme
/// followed by a token68 or by auth-params (`name=token` or `name="quoted string"`), every parameter name
/// at most once; and the Bearer scheme's own rules (RFC 6750 §3). Hand-written: no library of the ecosystem
/// parses challenges, and the audit needs every mistake named, not a best effort.
enum ChallengeSyntax {
    struct Challenge: Sendable, Equatable {
        var scheme: String
        var token68: String?
        var parameters: [Parameter]

        struct Parameter: Sendable, Equatable {
            var name: String
            var value: String
        }

        /// The value of the parameter `name` (case-insensitive), unquoted.
        func parameter(_ name: String) -> String? {
            parameters.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    enum Parsed: Sendable, Equatable {
        case challenges([Challenge])
        /// Where the value stops being a challenge list, and why.
        case malformed(String)
    }

    /// The challenges of `header`, or where it breaks RFC 9110 §11.2's grammar.
    static func parse(_ header: String) -> Parsed {
        var reader = Reader(Array(header.utf8))
        var challenges: [Challenge] = []
        reader.skipListSeparators()
        while !reader.atEnd {
            guard let scheme = reader.token() else { return .malformed(reader.unexpected("an auth-scheme")) }
            var challenge = Challenge(scheme: scheme, token68: nil, parameters: [])
            if !reader.atEnd && !reader.peek(",") {
                guard reader.skipSpaces() > 0 else { return .malformed(reader.unexpected("a space after the auth-scheme \(scheme)")) }
            }
            reader.skipWhitespace()
            if let token68 = reader.token68() {
                challenge.token68 = token68
            } else if !reader.atEnd && !reader.peek(",") {
                switch reader.parameters() {
                case .success(let parameters): challenge.parameters = parameters
                case .failure(let problem): return .malformed(problem.description)
                }
            }
            challenges.append(challenge)
            reader.skipWhitespace()
            guard reader.atEnd || reader.peek(",") else { return .malformed(reader.unexpected("a comma or the end")) }
            reader.skipListSeparators()
        }
        return .challenges(challenges)
    }

    /// Every way `header` breaks RFC 9110 §11.2 and §11.6.1, and RFC 6750 §3 for a Bearer challenge; empty
    /// when it is a well-formed list of at least one challenge.
    static func problems(_ header: String) -> [String] {
        let challenges: [Challenge]
        switch parse(header) {
        case .malformed(let problem): return ["not a challenge list (RFC 9110 §11.2): \(problem)"]
        case .challenges(let parsed): challenges = parsed
        }
        guard !challenges.isEmpty else { return ["no challenge (RFC 9110 §11.6.1: at least one)"] }
        var problems: [String] = []
        for challenge in challenges {
            let names = challenge.parameters.map { $0.name.lowercased() }
            for name in Set(names) where names.filter({ $0 == name }).count > 1 {
                problems.append("\(challenge.scheme) has \(name) more than once (RFC 9110 §11.2: once per challenge)")
            }
            if challenge.scheme.lowercased() == "bearer" { problems += bearerProblems(challenge) }
        }
        return problems
    }

    /// RFC 6750 §3: one or more auth-params, never a token68; `error` and `error_description` in
    /// %x20-21 / %x23-5B / %x5D-7E, `scope` in %x21 / %x23-5B / %x5D-7E and spaces.
    private static func bearerProblems(_ challenge: Challenge) -> [String] {
        var problems: [String] = []
        if challenge.token68 != nil { problems.append("Bearer is followed by a token68, not auth-params (RFC 6750 §3)") }
        if challenge.parameters.isEmpty && challenge.token68 == nil {
            problems.append("Bearer without any auth-param (RFC 6750 §3: one or more, e.g. realm)")
        }
        for parameter in challenge.parameters {
            let bytes = Array(parameter.value.utf8)
            switch parameter.name.lowercased() {
            case "error", "error_description":
                if !bytes.allSatisfy({ (0x20...0x21).contains($0) || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }) {
                    problems.append("Bearer \(parameter.name) holds characters outside RFC 6750 §3's set")
                }
            case "scope":
                if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }) {
                    problems.append("Bearer scope holds characters outside RFC 6750 §3's set")
                }
            default:
                break
            }
        }
        return problems
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// A cursor over the header's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }

        func peek(_ character: Character) -> Bool { !atEnd && bytes[index] == character.asciiValue }

        /// `tchar` (RFC 9110 §5.6.2).
        static func isTokenCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }

        static func isToken68Character(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: Array("-._~+/".utf8).contains(byte)
            }
        }

        mutating func token() -> String? {
            let start = index
            while !atEnd && Self.isTokenCharacter(bytes[index]) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        @discardableResult
        mutating func skipSpaces() -> Int {
            let start = index
            while !atEnd && bytes[index] == UInt8(ascii: " ") { index += 1 }
            return index - start
        }

        /// OWS and BWS: spaces and tabs.
        mutating func skipWhitespace() {
            while !atEnd && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
        }

        /// Empty list elements (RFC 9110 §5.6.1): commas and whitespace.
        mutating func skipListSeparators() {
            while !atEnd && (bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
                index += 1
            }
        }

        /// A token68 that runs to the next comma or the end; the cursor does not move otherwise.
        mutating func token68() -> String? {
            var end = index
            while end < bytes.count && Self.isToken68Character(bytes[end]) { end += 1 }
            guard end > index else { return nil }
            while end < bytes.count && bytes[end] == UInt8(ascii: "=") { end += 1 }
            var after = end
            while after < bytes.count && (bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: "\t")) { after += 1 }
            guard after == bytes.count || bytes[after] == UInt8(ascii: ",") else { return nil }
            // `name=value` is an auth-param: a token68's `=` only ends it.
            if bytes[index..<end].contains(UInt8(ascii: "=")), bytes[index..<end].last != UInt8(ascii: "=") { return nil }
            // A lone word before a comma is a token68 only if a later word does not make it the next scheme.
            let value = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end
            return value
        }

        /// `#auth-param`, up to the start of the next challenge or the end.
        mutating func parameters() -> Result<[Challenge.Parameter], Problem> {
            var parameters: [Challenge.Parameter] = []
            while true {
                guard let name = token() else { return .failure(Problem(description: unexpected("an auth-param name"))) }
                skipWhitespace()
                guard peek("=") else { return .failure(Problem(description: unexpected("= after the auth-param \(name)"))) }
                index += 1
                skipWhitespace()
                guard let value = quotedString() ?? token() else {
                    return .failure(Problem(description: unexpected("a token or a quoted string for \(name)")))
                }
                parameters.append(Challenge.Parameter(name: name, value: value))
                skipWhitespace()
                guard peek(",") else { return .success(parameters) }
                // After a comma: another auth-param (`name =`), or the next challenge.
                var lookahead = self
                lookahead.skipListSeparators()
                if lookahead.atEnd { return .success(parameters) }
                guard lookahead.token() != nil else { return .success(parameters) }
                lookahead.skipWhitespace()
                guard lookahead.peek("=") else { return .success(parameters) }
                var afterEquals = lookahead
                afterEquals.index += 1
                // `scheme token68=` before a comma is a challenge, not a parameter.
                afterEquals.skipWhitespace()
                if afterEquals.atEnd || afterEquals.peek(",") || afterEquals.peek("=") { return .success(parameters) }
                skipListSeparators()
            }
        }

        mutating func quotedString() -> String? {
            guard peek("\"") else { return nil }
            var cursor = index + 1
            var value: [UInt8] = []
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if byte == UInt8(ascii: "\"") {
                    index = cursor + 1
                    return String(decoding: value, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") {
                    guard cursor + 1 < bytes.count else { return nil }
                    value.append(bytes[cursor + 1])
                    cursor += 2
                    continue
                }
                value.append(byte)
                cursor += 1
            }
            return nil
        }

        func unexpected(_ expected: String) -> String {
            guard !atEnd else { return "expected \(expected), found the end" }
            let rest = String(decoding: bytes[index...].prefix(24), as: UTF8.self)
            return "expected \(expected) at byte \(index + 1), found \(String(reflecting: rest))"
        }
    }
}
