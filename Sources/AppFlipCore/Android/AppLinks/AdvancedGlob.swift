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

    static func parse(_ pattern: [UInt16]) throws(PatternMatcher.InvalidPattern) -> [Int] {
        var parsed: [Int] = []
        var ip = 0
        let lp = pattern.count
        var inSet = false
        var inRange = false
        var inCharClass = false
        func isModifier(_ token: Int) -> Bool {
            token == oneOrMore || token == zeroOrMore || token == rangeStop || token == rangeStart
        }
        func modifierNeedsToken() throws(PatternMatcher.InvalidPattern) {
            if parsed.isEmpty || isModifier(parsed[parsed.count - 1]) {
                throw PatternMatcher.InvalidPattern(reason: "Modifier must follow a token.")
            }
        }
        while ip < lp {
            if parsed.count > maximumStorage - 3 { throw PatternMatcher.InvalidPattern(reason: "Pattern is too large!") }
            var c = pattern[ip]
            var add = false
            switch c {
            case code("["):
                if inSet {
                    add = true
                } else {
                    // AOSP reads the next character unguarded: a trailing `[` throws there.
                    guard ip + 1 < lp else { throw PatternMatcher.InvalidPattern(reason: "Set was not terminated!") }
                    if pattern[ip + 1] == code("^") {
                        parsed.append(inverseSetStart)
                        ip += 1
                    } else {
                        parsed.append(setStart)
                    }
                    ip += 1
                    inSet = true
                    continue
                }
            case code("]"):
                if !inSet {
                    add = true
                } else {
                    let last = parsed[parsed.count - 1]
                    if last == setStart || last == inverseSetStart {
                        throw PatternMatcher.InvalidPattern(reason: "You must define characters in a set.")
                    }
                    parsed.append(setStop)
                    inSet = false
                    inCharClass = false
                }
            case code("{"):
                if !inSet {
                    try modifierNeedsToken()
                    parsed.append(rangeStart)
                    ip += 1
                    inRange = true
                }
            case code("}"):
                if inRange {
                    parsed.append(rangeStop)
                    inRange = false
                }
            case code("*"):
                if !inSet {
                    try modifierNeedsToken()
                    parsed.append(zeroOrMore)
                }
            case code("+"):
                if !inSet {
                    try modifierNeedsToken()
                    parsed.append(oneOrMore)
                }
            case code("."):
                if !inSet { parsed.append(anyCharacter) }
            case code("\\"):
                if ip + 1 >= lp { throw PatternMatcher.InvalidPattern(reason: "Escape found at end of pattern!") }
                ip += 1
                c = pattern[ip]
                add = true
            default:
                add = true
            }
            if inSet {
                if inCharClass {
                    parsed.append(Int(c))
                    inCharClass = false
                } else if ip + 2 < lp && pattern[ip + 1] == code("-") && pattern[ip + 2] != code("]") {
                    inCharClass = true
                    parsed.append(Int(c))
                    ip += 1
                } else {
                    parsed.append(Int(c))
                    parsed.append(Int(c))
                }
            } else if inRange {
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
                continue
            } else if add {
                parsed.append(Int(c))
            }
            ip += 1
        }
        if inSet { throw PatternMatcher.InvalidPattern(reason: "Set was not terminated!") }
        return parsed
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
