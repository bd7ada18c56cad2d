/// An AASA pattern compiled once at load: literal runs, `?` (exactly one character), `*` (any run, `/`
/// included) and substitution-variable alternatives. Matching walks the tokens over UTF-8 bytes and never
/// looks at the pattern text again.
///
/// Patterns without alternatives run the classic greedy glob, which only ever backtracks to the most recent
/// `*`: no allocation, O(input × tokens) at worst. Patterns with alternatives (`$(lang)`, custom variables)
/// need real alternation and run as a simulation over the set of reachable input positions, with the same
/// bound and no exponential backtracking.
struct Pattern: Sendable {
    enum Token: Sendable {
        /// Bytes that must appear as written (already case-folded when the rule folds case).
        case literal([UInt8])
        /// `?`: exactly one character (one Unicode scalar, however many bytes it takes).
        case anyCharacter
        /// `*`: any run of characters, possibly empty, `/` included.
        case anyRun
        /// `$(name)`: exactly one of the variable's values.
        case oneOf(Alternatives)
    }

    let tokens: [Token]
    private let hasAlternatives: Bool

    init(tokens: [Token]) {
        self.tokens = tokens
        self.hasAlternatives = tokens.contains { if case .oneOf = $0 { true } else { false } }
    }

    /// True when the pattern accepts every input, the empty one included: it is a lone `*`.
    var matchesEverything: Bool {
        if tokens.count == 1, case .anyRun = tokens[0] { return true }
        return false
    }

    func matches(_ input: ArraySlice<UInt8>) -> Bool {
        if !hasAlternatives { return Self.globMatches(tokens, input) }
        var start = [Bool](repeating: false, count: input.count + 1)
        start[0] = true
        return Self.reachable(after: tokens, in: input, from: start)[input.count]
    }

    /// The greedy glob for token lists without alternatives.
    static func globMatches(_ tokens: [Token], _ input: ArraySlice<UInt8>) -> Bool {
        let end = input.endIndex
        var token = 0
        var position = input.startIndex
        var lastStarToken = -1
        var lastStarPosition = position
        while true {
            if token < tokens.count {
                switch tokens[token] {
                case .anyRun:
                    lastStarToken = token
                    lastStarPosition = position
                    token += 1
                    continue
                case .anyCharacter:
                    if position < end {
                        position = input.endOfScalar(startingAt: position)
                        token += 1
                        continue
                    }
                case .literal(let bytes):
                    if input.hasBytes(bytes, at: position) {
                        position += bytes.count
                        token += 1
                        continue
                    }
                case .oneOf:
                    preconditionFailure("alternatives are matched by reachable(after:in:from:)")
                }
            } else if position == end {
                return true
            }
            // Mismatch: let the most recent `*` swallow one more character, or give up.
            guard lastStarToken >= 0, lastStarPosition < end else { return false }
            lastStarPosition = input.endOfScalar(startingAt: lastStarPosition)
            position = lastStarPosition
            token = lastStarToken + 1
        }
    }

    /// The input offsets (0...count) reachable after matching `tokens` from the offsets set in `start`.
    static func reachable(after tokens: [Token], in input: ArraySlice<UInt8>, from start: [Bool]) -> [Bool] {
        let count = input.count
        let base = input.startIndex
        var current = start
        for token in tokens {
            var next = [Bool](repeating: false, count: count + 1)
            var any = false
            switch token {
            case .literal(let bytes):
                for offset in 0...count where current[offset] && input.hasBytes(bytes, at: base + offset) {
                    next[offset + bytes.count] = true
                    any = true
                }
            case .anyCharacter:
                for offset in 0..<count where current[offset] {
                    next[input.endOfScalar(startingAt: base + offset) - base] = true
                    any = true
                }
            case .anyRun:
                if let first = current.firstIndex(of: true) {
                    for offset in first...count { next[offset] = true }
                    any = true
                }
            case .oneOf(let alternatives):
                for offset in 0...count where current[offset] {
                    for group in alternatives.literalsByLength where offset + group.length <= count {
                        let slice = input[(base + offset)..<(base + offset + group.length)]
                        if group.values.contains(slice) {
                            next[offset + group.length] = true
                            any = true
                        }
                    }
                }
                for pattern in alternatives.patterns {
                    let reached = reachable(after: pattern, in: input, from: current)
                    for offset in 0...count where reached[offset] {
                        next[offset] = true
                        any = true
                    }
                }
            }
            guard any else { return next }
            current = next
        }
        return current
    }
}

/// The compiled values of one substitution variable: plain strings grouped by length for a hash lookup,
/// and values with wildcards (`a*z`) as token lists.
struct Alternatives: Sendable {
    let literalsByLength: [(length: Int, values: Set<ArraySlice<UInt8>>)]
    let patterns: [[Pattern.Token]]

    init(values: [[Pattern.Token]]) {
        var literals: [Int: Set<ArraySlice<UInt8>>] = [:]
        var patterns: [[Pattern.Token]] = []
        for tokens in values {
            switch tokens.count {
            case 0:
                literals[0, default: []].insert([])
            case 1:
                if case .literal(let bytes) = tokens[0] {
                    literals[bytes.count, default: []].insert(bytes[...])
                } else {
                    patterns.append(tokens)
                }
            default:
                patterns.append(tokens)
            }
        }
        self.literalsByLength = literals.keys.sorted().map { ($0, literals[$0]!) }
        self.patterns = patterns
    }
}

extension ArraySlice<UInt8> {
    /// The index just past the UTF-8 scalar that starts at `index` (one byte for a stray continuation byte).
    @inline(__always)
    func endOfScalar(startingAt index: Int) -> Int {
        let lead = self[index]
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        return Swift.min(index + length, endIndex)
    }

    @inline(__always)
    func hasBytes(_ bytes: [UInt8], at index: Int) -> Bool {
        guard endIndex - index >= bytes.count else { return false }
        var offset = 0
        while offset < bytes.count {
            if self[index + offset] != bytes[offset] { return false }
            offset += 1
        }
        return true
    }
}
