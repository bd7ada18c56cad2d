/// `PatternMatcher`'s advanced glob (`parseAndVerifyAdvancedPattern`, `matchAdvancedPattern`): the pattern is
/// compiled to an array in which characters are themselves and tokens are negative, as in AOSP, so that
/// the refusals and the greedy, non-backtracking matching come out the same.
enum AdvancedGlob {
    static let setStart = -1
    static let inverseSetStart = -2
    static let setStop = -3
    static let anyCharacter = -4
    static let rangeStart = -5
    static let rangeStop = -6
    static let zeroOrMore = -7
    static let oneOrMore = -8
    /// AOSP's `MAX_PATTERN_STORAGE`.
    static let maximumStorage = 2048

    private static func code(_ ascii: Character) -> UInt16 { UInt16(ascii.asciiValue!) }

    /// `parseAndVerifyAdvancedPattern`: `pattern` compiled for ``match(_:_:)``, or the refusal AOSP throws.
    static func parse(_ pattern: [UInt16]) throws(PatternMatcher.InvalidPattern) -> [Int] {
        var parser = Parser(pattern: pattern)
        while parser.ip < pattern.count {
            try parser.step()
        }
        if parser.inSet { throw PatternMatcher.InvalidPattern(reason: "Set was not terminated!") }
        return parser.parsed
    }

    /// AOSP's parsing loop and its state, one ``step()`` per turn of the loop: the order of its checks is
    /// AOSP's, so that the same patterns are refused with the same reasons.
    private struct Parser {
        let pattern: [UInt16]
        var parsed: [Int] = []
        /// The index of the character being read.
        var ip = 0
        /// Inside `[…]`.
        var inSet = false
        /// Between `{` and `}`.
        var inRange = false
        /// A set member was followed by `-`: the next character ends its range.
        var inCharClass = false

        /// One turn of the loop: the character at ``ip`` read as a token, then stored as a set member, a range
        /// quantifier's bounds or a literal.
        mutating func step() throws(PatternMatcher.InvalidPattern) {
            if parsed.count > maximumStorage - 3 { throw PatternMatcher.InvalidPattern(reason: "Pattern is too large!") }
            guard let (c, isLiteral) = try token() else { return }
            if inSet {
                appendSetMember(c)
            } else if inRange {
                try appendRangeBounds()
                return
            } else if isLiteral {
                parsed.append(Int(c))
            }
            ip += 1
        }

        /// AOSP's switch on the character at ``ip``: the tokens it appends and the state it changes. Returns
        /// the character read (the escaped one after a backslash) and whether outside a set it is a literal; nil
        /// after `[` or `[^`, which start a set and are read whole.
        private mutating func token() throws(PatternMatcher.InvalidPattern) -> (UInt16, isLiteral: Bool)? {
            let c = pattern[ip]
            switch c {
            case code("["):
                if inSet { return (c, true) }
                // AOSP reads the next character unguarded: a trailing `[` throws there.
                guard ip + 1 < pattern.count else { throw PatternMatcher.InvalidPattern(reason: "Set was not terminated!") }
                if pattern[ip + 1] == code("^") {
                    parsed.append(inverseSetStart)
                    ip += 1
                } else {
                    parsed.append(setStart)
                }
                ip += 1
                inSet = true
                return nil
            case code("]"):
                if !inSet { return (c, true) }
                let last = parsed[parsed.count - 1]
                if last == setStart || last == inverseSetStart {
                    throw PatternMatcher.InvalidPattern(reason: "You must define characters in a set.")
                }
                parsed.append(setStop)
                inSet = false
                inCharClass = false
            case code("{"):
                if !inSet {
                    try appendModifier(rangeStart)
                    ip += 1
                    inRange = true
                }
            case code("}"):
                if inRange {
                    parsed.append(rangeStop)
                    inRange = false
                }
            case code("*"):
                if !inSet { try appendModifier(zeroOrMore) }
            case code("+"):
                if !inSet { try appendModifier(oneOrMore) }
            case code("."):
                if !inSet { parsed.append(anyCharacter) }
            case code("\\"):
                if ip + 1 >= pattern.count { throw PatternMatcher.InvalidPattern(reason: "Escape found at end of pattern!") }
                ip += 1
                return (pattern[ip], true)
            default:
                return (c, true)
            }
            return (c, false)
        }

        /// A modifier (`*`, `+`, `{`) must follow a token that is not itself a modifier.
        private mutating func appendModifier(_ modifier: Int) throws(PatternMatcher.InvalidPattern) {
            if let last = parsed.last, ![oneOrMore, zeroOrMore, rangeStop, rangeStart].contains(last) {
                parsed.append(modifier)
            } else {
                throw PatternMatcher.InvalidPattern(reason: "Modifier must follow a token.")
            }
        }

        /// A set member, stored as a range of itself, or the start of a range `a-z` whose end comes next.
        private mutating func appendSetMember(_ c: UInt16) {
            if inCharClass {
                parsed.append(Int(c))
                inCharClass = false
            } else if ip + 2 < pattern.count && pattern[ip + 1] == code("-") && pattern[ip + 2] != code("]") {
                inCharClass = true
                parsed.append(Int(c))
                ip += 1
            } else {
                parsed.append(Int(c))
                parsed.append(Int(c))
            }
        }

        /// The bounds of `{n}` or `{n,m}` (`{n,}`: no maximum), from ``ip`` to the `}`, which is read next.
        private mutating func appendRangeBounds() throws(PatternMatcher.InvalidPattern) {
            guard let end = pattern[ip...].firstIndex(of: code("}")) else {
                throw PatternMatcher.InvalidPattern(reason: "Range not ended with '}'")
            }
            let range = Array(pattern[ip..<end])
            let bounds: (Int, Int)
            if let comma = range.firstIndex(of: code(",")) {
                let minimum = try javaInteger(range[..<comma])
                let maximum = comma == range.count - 1 ? Int(Int32.max) : try javaInteger(range[(comma + 1)...])
                bounds = (minimum, maximum)
            } else {
                let value = try javaInteger(range[...])
                bounds = (value, value)
            }
            if bounds.0 > bounds.1 {
                throw PatternMatcher.InvalidPattern(reason: "Range quantifier minimum is greater than maximum")
            }
            parsed.append(bounds.0)
            parsed.append(bounds.1)
            ip = end
        }
    }

    /// Java's `Integer.parseInt`: an optional sign, then decimal digits, within 32 bits.
    private static func javaInteger(_ units: ArraySlice<UInt16>) throws(PatternMatcher.InvalidPattern) -> Int {
        let text = String(decoding: units, as: UTF16.self)
        guard let value = Int32(text), !text.isEmpty else {
            throw PatternMatcher.InvalidPattern(reason: "Range number format incorrect")
        }
        return Int(value)
    }

    static func match(_ parsed: [Int], _ match: [UInt16]) -> Bool {
        var ip = 0
        var im = 0
        let lp = parsed.count
        let lm = match.count
        while ip < lp {
            let token = parsed[ip]
            var setStartIndex = 0
            var setEndIndex = 0
            let type: Int
            switch token {
            case anyCharacter:
                type = anyCharacter
                ip += 1
            case setStart, inverseSetStart:
                type = token
                setStartIndex = ip + 1
                ip += 1
                while ip < lp && parsed[ip] != setStop { ip += 1 }
                setEndIndex = ip - 1
                ip += 1
            default:
                type = 0
                setStartIndex = ip
                ip += 1
            }
            var minimum = 1
            var maximum = 1
            if ip < lp {
                switch parsed[ip] {
                case zeroOrMore:
                    (minimum, maximum) = (0, Int(Int32.max))
                    ip += 1
                case oneOrMore:
                    (minimum, maximum) = (1, Int(Int32.max))
                    ip += 1
                case rangeStart:
                    minimum = parsed[ip + 1]
                    maximum = parsed[ip + 2]
                    ip += 4
                default:
                    break
                }
            }
            if minimum > maximum { return false }
            var matched = 0
            while matched < maximum && matchesOne(match, im + matched, type, parsed, setStartIndex, setEndIndex) {
                matched += 1
            }
            if matched < minimum { return false }
            im += matched
        }
        return ip >= lp && im >= lm
    }

    private static func matchesOne(_ match: [UInt16], _ im: Int, _ type: Int, _ parsed: [Int], _ start: Int, _ end: Int) -> Bool {
        guard im < match.count else { return false }
        let character = Int(match[im])
        switch type {
        case anyCharacter:
            return true
        case setStart, inverseSetStart:
            var inSet = false
            var index = start
            while index < end {
                if character >= parsed[index] && character <= parsed[index + 1] {
                    inSet = true
                    break
                }
                index += 2
            }
            return type == setStart ? inSet : !inSet
        default:
            return character == parsed[start]
        }
    }
}
