import AppFlipArtifacts
import AppFlipTestSupport
import Foundation
import Testing

/// The binary XML reader against `aapt dump xmltree` on the same APKs: the same elements, in the same order
/// and depth, with the same attributes (namespace, name, resource id, raw string and typed value).
@Suite("Binary XML against aapt dump xmltree")
struct AAPTXmlTreeTests {
    @Test("every element and attribute aapt prints", arguments: ["app-unsigned.apk", "app-v1.apk", "paths.apk"])
    func sameTreeAsAAPT(apk: String) async throws {
        let path = try await AndroidTestArtifacts.path(apk)
        let dump = try await ArtifactTools.run("aapt", ["dump", "xmltree", path, "AndroidManifest.xml"])
        try #require(dump.status == 0, "aapt: \(dump.output)")
        let archive = try ArtifactArchive(path: path)
        let root = try BinaryXMLReader.read(try #require(try archive.read("AndroidManifest.xml")), file: path)
        let expected = AAPTXmlTree.lines(dump.output)
        #expect(expected.count > 20)
        #expect(AAPTXmlTree.lines(root, namespaces: AAPTXmlTree.namespaces(dump.output)) == expected)
    }
}

/// `aapt dump xmltree` (AOSP `tools/aapt/XMLNode.cpp`, `printXMLBlock`) and the reader's tree, each written as
/// the same normalised lines: `depth E name line` and `depth A prefix:name id value raw`.
enum AAPTXmlTree {
    /// `N: prefix=uri` declarations, uri to prefix.
    static func namespaces(_ dump: String) -> [String: String] {
        var map: [String: String] = [:]
        for line in dump.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("N: "), let equals = text.firstIndex(of: "=") else { continue }
            map[String(text[text.index(after: equals)...])] = String(text.dropFirst(3)[..<equals])
        }
        return map
    }

    static func lines(_ dump: String) -> [String] {
        var result: [String] = []
        var elementDepth = 0
        for line in dump.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count / 2
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("E: ") {
                let body = text.dropFirst(3)
                let name = body.prefix { $0 != " " }
                let lineNumber = body.split(separator: "line=").last.map { $0.dropLast() } ?? ""
                elementDepth = indent
                result.append("\(indent) E \(name) \(lineNumber)")
            } else if text.hasPrefix("A: ") {
                result.append("\(elementDepth + 1) A " + attribute(String(text.dropFirst(3))))
            }
        }
        return result
    }

    /// `prefix:name(0xid)=value` with `value` one of `"text" (Raw: "raw")`, `@0xid`, `(type 0xT)0xD (Raw: "raw")`.
    private static func attribute(_ text: String) -> String {
        let equals = text.firstIndex(of: "=")!
        var name = String(text[..<equals])
        var id = "-"
        if let open = name.firstIndex(of: "(") {
            id = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
            name = String(name[..<open])
        }
        var value = String(text[text.index(after: equals)...])
        var raw = "-"
        if let rawRange = value.range(of: " (Raw: \"") {
            raw = String(value[rawRange.upperBound..<value.index(value.endIndex, offsetBy: -2)])
            value = String(value[..<rawRange.lowerBound])
        }
        if value.hasPrefix("\"") { value = "s:" + value.dropFirst().dropLast() }
        if value.hasPrefix("(type ") {
            let parts = value.dropFirst(6).split(separator: ")")
            value = "t:\(parts[0]):\(parts[1])"
        }
        return "\(name) \(id) \(value) \(raw)"
    }

    static func lines(_ root: AndroidXMLElement, namespaces: [String: String]) -> [String] {
        var result: [String] = []
        func walk(_ element: AndroidXMLElement, depth: Int) {
            result.append("\(depth) E \(element.name) \(element.line.map(String.init) ?? "")")
            for attribute in element.attributes {
                let prefix = attribute.namespace.map { (namespaces[$0] ?? $0) + ":" } ?? ""
                let id = attribute.resourceID.map { "0x" + hex($0) } ?? "-"
                result.append("\(depth + 1) A \(prefix)\(attribute.name) \(id) \(value(attribute.value)) \(attribute.raw ?? "-")")
            }
            for child in element.children { walk(child, depth: depth + 1) }
        }
        walk(root, depth: 1)
        return result
    }

    private static func value(_ value: AndroidXMLValue) -> String {
        switch value {
        case .string(let text): "s:" + text
        case .reference(let id): "@0x" + hex(id)
        case .attributeReference(let id): "?0x" + hex(id)
        case .boolean(let flag): "t:0x12:0x" + (flag ? "ffffffff" : "0")
        case .integer(let number, let isHex): "t:0x\(isHex ? "11" : "10"):0x" + String(UInt32(bitPattern: number), radix: 16)
        case .unresolvedReference(let name): name
        case .other(let type, let data): "t:0x\(String(type, radix: 16)):0x" + String(data, radix: 16)
        }
    }

    private static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
