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
        hasAlternatives ? Self.simulationMatches(tokens, input) : Self.globMatches(tokens, input)
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
                    preconditionFailure("alternatives are matched by simulationMatches")
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

    /// Simulates all the ways through the tokens at once: a bit set of the input offsets (0...count) reachable
    /// so far, advanced token by token. The sets live on the stack.
    static func simulationMatches(_ tokens: [Token], _ input: ArraySlice<UInt8>) -> Bool {
        let words = PositionSet.words(for: input.count)
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { buffer in
            buffer.initialize(repeating: 0)
            let start = PositionSet(UnsafeMutableBufferPointer(rebasing: buffer[0..<words]))
            let end = PositionSet(UnsafeMutableBufferPointer(rebasing: buffer[words...]))
            start.insert(0)
            reach(tokens, input, from: start, into: end)
            return end.contains(input.count)
        }
    }

    /// Sets `result` to the offsets reachable after `tokens` from the offsets in `start`.
    private static func reach(_ tokens: [Token], _ input: ArraySlice<UInt8>, from start: PositionSet, into result: PositionSet) {
        let count = input.count
        let base = input.startIndex
        let words = start.words.count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 3 * words) { buffer in
            buffer.initialize(repeating: 0)
            var current = PositionSet(UnsafeMutableBufferPointer(rebasing: buffer[0..<words]))
            var next = PositionSet(UnsafeMutableBufferPointer(rebasing: buffer[words..<(2 * words)]))
            let branch = PositionSet(UnsafeMutableBufferPointer(rebasing: buffer[(2 * words)...]))
            current.assign(start)
            for token in tokens {
                next.clear()
                switch token {
                case .literal(let bytes):
                    current.forEach { offset in
                        if input.hasBytes(bytes, at: base + offset) { next.insert(offset + bytes.count) }
                    }
                case .anyCharacter:
                    current.forEach { offset in
                        if offset < count { next.insert(input.endOfScalar(startingAt: base + offset) - base) }
                    }
                case .anyRun:
                    if let first = current.first { next.insertAll(from: first, through: count) }
                case .oneOf(let alternatives):
                    current.forEach { offset in
                        for group in alternatives.literals
                        where offset + group.length <= count
                            && group.contains(input[(base + offset)..<(base + offset + group.length)])
                        {
                            next.insert(offset + group.length)
                        }
                    }
                    for pattern in alternatives.patterns {
                        reach(pattern, input, from: current, into: branch)
                        next.formUnion(branch)
                    }
                }
                guard !next.isEmpty else {
                    result.clear()
                    return
                }
                swap(&current, &next)
            }
            result.assign(current)
        }
    }
}

/// A set of input offsets as bits over borrowed words; the words belong to the caller's stack frame.
private struct PositionSet {
    let words: UnsafeMutableBufferPointer<UInt64>

    init(_ words: UnsafeMutableBufferPointer<UInt64>) {
        self.words = words
    }

    /// Words for offsets 0...count.
    static func words(for count: Int) -> Int { count / 64 + 1 }

    func insert(_ offset: Int) { words[offset >> 6] |= 1 << UInt64(offset & 63) }
    func contains(_ offset: Int) -> Bool { words[offset >> 6] & (1 << UInt64(offset & 63)) != 0 }
    func clear() { words.update(repeating: 0) }
    func assign(_ other: PositionSet) { _ = words.update(fromContentsOf: other.words) }
    func formUnion(_ other: PositionSet) { for index in words.indices { words[index] |= other.words[index] } }
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    var first: Int? {
        for index in words.indices where words[index] != 0 {
            return index * 64 + words[index].trailingZeroBitCount
        }
        return nil
    }

    func insertAll(from first: Int, through last: Int) {
        for offset in first...last { insert(offset) }
    }

    func forEach(_ body: (Int) -> Void) {
        for index in words.indices {
            var word = words[index]
            while word != 0 {
                body(index * 64 + word.trailingZeroBitCount)
                word &= word - 1
            }
        }
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
