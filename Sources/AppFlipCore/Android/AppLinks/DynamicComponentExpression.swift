/// The expressions of Android 15's dynamic App Links rules (`dynamic_app_link_components`' `/`, `?` and `#`
/// values) and their conversion to a `PatternMatcher`.
///
/// In DAL, `*` matches any run, `?` one character and `?*` one or more; everything else, `[..]` and `{..}`
/// included, is literal. StatementService's `DalComponentParser.kt` converts an expression: no wildcard →
/// LITERAL; a single trailing `*` → PREFIX; otherwise SIMPLE_GLOB. Two versions of that parser shipped: the
/// newer one (what routing follows) escapes `.` and `\` only in globs and writes `?*` as `..*`; the older
/// one escaped `.` everywhere and wrote `?*` as the ADVANCED_GLOB `.+`. The result inherits PatternMatcher's
/// no-backtracking globs, so `foo*.bar` refuses `foo.bar.bar`, as on a device.
public enum DynamicComponentExpression {
    public enum ParserVersion: Sendable, Hashable {
        case older
        case newer
    }

    /// The empty expression is refused, as `DalComponentParser` throws on it.
    public struct EmptyExpression: Error, Sendable, Hashable {}

    /// The pattern type and pattern text `expression` becomes.
    public static func convert(
        _ expression: String,
        parser: ParserVersion = .newer
    ) throws(EmptyExpression) -> (kind: PatternMatcher.Kind, pattern: String) {
        guard !expression.isEmpty else { throw EmptyExpression() }
        let wildcards = expression.filter { $0 == "*" || $0 == "?" }.count
        switch parser {
        case .newer:
            if wildcards == 0 { return (.literal, expression) }
            if wildcards == 1 && expression.hasSuffix("*") { return (.prefix, String(expression.dropLast())) }
            return (.simpleGlob, rewrite(expression, escaping: [".", "\\"]))
        case .older:
            if wildcards == 0 { return (.literal, escapeDots(expression)) }
            if wildcards == 1 && expression.hasSuffix("*") { return (.prefix, escapeDots(String(expression.dropLast()))) }
            if expression.contains("?*") {
                return (.advancedGlob, rewrite(expression, escaping: [".", "[", "]", "{", "}"], oneOrMore: ".+"))
            }
            return (.simpleGlob, rewrite(expression, escaping: ["."]))
        }
    }

    /// A matcher for `expression` (newer parser).
    public static func matcher(_ expression: String) throws(EmptyExpression) -> PatternMatcher {
        let (kind, pattern) = try convert(expression)
        // Only ADVANCED_GLOB patterns can be refused, and the newer parser never writes one.
        guard let matcher = try? PatternMatcher(pattern, kind: kind) else { throw EmptyExpression() }
        return matcher
    }

    private static func escapeDots(_ text: String) -> String {
        var output = ""
        for character in text {
            if character == "." { output += "\\" }
            output.append(character)
        }
        return output
    }

    private static func rewrite(_ expression: String, escaping escaped: Set<Character>, oneOrMore: String = "..*") -> String {
        var output = ""
        var characters = expression[...]
        while let character = characters.popFirst() {
            switch character {
            case "?" where characters.first == "*":
                characters.removeFirst()
                output += oneOrMore
            case "?": output += "."
            case "*": output += ".*"
            case _ where escaped.contains(character): output += "\\" + String(character)
            default: output.append(character)
            }
        }
        return output
    }
}
