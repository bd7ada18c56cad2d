import AppFlipCore
import AppFlipProtocol

/// docs/protocol.md read as the contract a client is written from: which members each op's section names, and
/// which ops the page describes.
struct ProtocolDocument {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// The lines from the heading `heading` (without its `#`s) to the next heading of the same or a higher level.
    func section(_ heading: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.drop { $0 == "#" }.hasPrefix(" \(heading)") && $0.hasPrefix("#") }) else { return "" }
        let level = lines[start].prefix { $0 == "#" }.count
        let end =
            lines[(start + 1)...].firstIndex { line in
                line.hasPrefix("#") && line.prefix { $0 == "#" }.count <= level
            } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// The ops described under "Ops", one `### `op`` heading each.
    var ops: [String] {
        section("Ops").split(separator: "\n").compactMap { line in
            guard line.hasPrefix("### `") else { return nil }
            return String(line.dropFirst(5).prefix { $0 != "`" })
        }
    }

    /// The sections a reply's members are documented in: the op's own (its `####` parts included), the
    /// shared envelope and error fields, and for the members that stand for a documented object, that object's
    /// section.
    func sections(forOp op: String?) -> String {
        var sections = [section("Requests and replies"), section("Errors")]
        if let op { sections.append(section("`\(op)`")) }
        sections.append(section("Android identities"))
        return sections.joined(separator: "\n")
    }

    /// Every member name in `reply` (recursively) that its sections never name in backticks, alone or as the
    /// last part of a dotted path (`activity.webpageURL`) or of a list (`app`, `rule`), as `op/path`.
    func undocumentedMembers(of reply: JSONValue) -> [String] {
        guard case .object(let members) = reply else { return [] }
        let op: String? = if case .string(let name)? = members["op"] { name } else { nil }
        let named = Self.backticked(in: sections(forOp: op))
        var missing: [String] = []
        func walk(_ value: JSONValue, path: String) {
            switch value {
            case .object(let members):
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    if !named.contains(key) { missing.append("\(op ?? "-")/\(path)\(key)") }
                    walk(member, path: "\(path)\(key).")
                }
            case .array(let elements):
                for element in elements { walk(element, path: path) }
            default:
                break
            }
        }
        walk(reply, path: "")
        return missing
    }

    /// Each backticked word of the prose (code blocks are examples, not documentation), and the last part of
    /// each backticked dotted path.
    static func backticked(in text: String) -> Set<String> {
        var prose: [Substring] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
            } else if !inBlock {
                prose.append(line)
            }
        }
        var words: Set<String> = []
        for (index, span) in prose.joined(separator: "\n").split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
            words.insert(String(span))
            if let last = span.split(separator: ".").last { words.insert(String(last)) }
            if span.hasPrefix("\""), let key = span.dropFirst().split(separator: "\"").first { words.insert(String(key)) }
        }
        return words
    }
}
