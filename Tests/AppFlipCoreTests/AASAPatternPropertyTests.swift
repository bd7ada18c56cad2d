import PropertyBased
import Testing

@testable import AppFlipCore

/// The two pattern engines against an obviously correct (and exponential) reference, on random patterns and
/// inputs small enough for the reference to finish.
@Suite struct AASAPatternPropertyTests {
    static let patternAlphabet: [Character] = ["a", "b", "/", "*", "?", "é"]
    static let inputAlphabet: [Character] = ["a", "b", "/", "é"]

    static func text(_ indices: [Int], _ alphabet: [Character]) -> String {
        String(indices.map { alphabet[$0] })
    }

    /// `*` any run of scalars, `?` one scalar, anything else itself: the definition, read literally.
    static func reference(_ pattern: Substring.UnicodeScalarView, _ input: Substring.UnicodeScalarView) -> Bool {
        guard let first = pattern.first else { return input.isEmpty }
        let rest = pattern.dropFirst()
        switch first {
        case "*":
            var suffix = input
            while true {
                if reference(rest, suffix) { return true }
                guard !suffix.isEmpty else { return false }
                suffix = suffix.dropFirst()
            }
        case "?":
            return !input.isEmpty && reference(rest, input.dropFirst())
        default:
            return input.first == first && reference(rest, input.dropFirst())
        }
    }

    static func tokens(_ pattern: String) throws -> [Pattern.Token] {
        var compiler = PatternCompiler(variables: [:])
        return try compiler.compile(pattern, foldingCase: false).tokens
    }

    @Test func globAndSimulationAgreeWithTheDefinition() async {
        await propertyCheck(
            count: 3000,
            input: Gen.int(in: 0...5).array(of: 0...7),
            Gen.int(in: 0...3).array(of: 0...9)
        ) { patternIndices, inputIndices in
            let pattern = Self.text(patternIndices, Self.patternAlphabet)
            let input = Self.text(inputIndices, Self.inputAlphabet)
            let expected = Self.reference(Substring(pattern).unicodeScalars, Substring(input).unicodeScalars)
            let tokens = try! Self.tokens(pattern)
            let bytes = Array(input.utf8)[...]
            #expect(Pattern.globMatches(tokens, bytes) == expected, "glob: \(pattern) vs \(input)")
            #expect(Pattern.simulationMatches(tokens, bytes) == expected, "simulation: \(pattern) vs \(input)")
        }
    }

    @Test func aVariableMatchesExactlyOneOfItsValues() async {
        await propertyCheck(
            count: 1000,
            input: Gen.int(in: 0...3).array(of: 0...10).array(of: 0...6),
            Gen.int(in: 0...3).array(of: 0...10)
        ) { valueIndices, inputIndices in
            let values = valueIndices.map { Self.text($0, Self.inputAlphabet) }
            let input = Self.text(inputIndices, Self.inputAlphabet)
            var compiler = PatternCompiler(variables: ["v": values])
            let pattern = try! compiler.compile("$(v)", foldingCase: false)
            #expect(pattern.matches(Array(input.utf8)[...]) == values.contains(input), "\(values) vs \(input)")
        }
    }
}
