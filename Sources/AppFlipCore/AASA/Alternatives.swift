/// The compiled values of one substitution variable: plain strings grouped by length, and values with
/// wildcards (`a*z`) as token lists.
struct Alternatives: Sendable {
    /// Plain values of one length. Up to 8 bytes (every predefined value, most custom ones) they are packed
    /// into sorted integers and found by binary search, without hashing.
    struct LiteralGroup: Sendable {
        let length: Int
        private let packed: [UInt64]
        private let long: Set<[UInt8]>

        init(length: Int, values: [[UInt8]]) {
            self.length = length
            if length <= 8 {
                packed = Set(values.map { Self.pack($0[...]) }).sorted()
                long = []
            } else {
                packed = []
                long = Set(values)
            }
        }

        func contains(_ slice: ArraySlice<UInt8>) -> Bool {
            guard length <= 8 else { return long.contains(Array(slice)) }
            let key = Self.pack(slice)
            var low = 0
            var high = packed.count
            while low < high {
                let middle = (low + high) / 2
                if packed[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low < packed.count && packed[low] == key
        }

        private static func pack(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    let literals: [LiteralGroup]
    let patterns: [[Pattern.Token]]

    init(values: [[Pattern.Token]]) {
        var literals: [Int: [[UInt8]]] = [:]
        var patterns: [[Pattern.Token]] = []
        for tokens in values {
            if tokens.isEmpty {
                literals[0, default: []].append([])
            } else if tokens.count == 1, case .literal(let bytes) = tokens[0] {
                literals[bytes.count, default: []].append(bytes)
            } else {
                patterns.append(tokens)
            }
        }
        self.literals = literals.keys.sorted().map { LiteralGroup(length: $0, values: literals[$0]!) }
        self.patterns = patterns
    }
}
