import Foundation
import FoundationXML

/// A source `AndroidManifest.xml`, as a project holds it, read with Foundation's `XMLParser` (libxml2):
/// external entities are never resolved, and depth and element count are bounded by ``XMLLimits``.
/// Values stay text; `@string/host` is an ``AndroidXMLValue/unresolvedReference(_:)``, since only the build
/// resolves it.
public enum SourceXMLReader {
    /// The document's root element.
    public static func read(_ bytes: [UInt8], file: String, limits: XMLLimits = .standard) throws -> AndroidXMLElement {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let delegate = Delegate(file: file, limits: limits)
        parser.delegate = delegate
        let parsed = parser.parse()
        if let error = delegate.error { throw error }
        guard parsed, let root = delegate.root else {
            let code = (parser.parserError as NSError?)?.code
            let loop = " (an entity reference loop or an entity expanding too much)"
            let cause = code.map { "libxml2 error \($0)\($0 == 89 ? loop : "")" } ?? "no root element"
            throw ArtifactError("XML", file: file, "line \(parser.lineNumber), column \(parser.columnNumber): \(cause)")
        }
        return root
    }

    /// Builds the tree, resolving prefixes with the `xmlns` declarations in scope.
    private final class Delegate: NSObject, XMLParserDelegate {
        let file: String
        let limits: XMLLimits
        var stack: [(element: AndroidXMLElement, scope: [String: String])] = []
        var root: AndroidXMLElement?
        var count = 0
        var error: ArtifactError?

        init(file: String, limits: XMLLimits) {
            self.file = file
            self.limits = limits
        }

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String]
        ) {
            count += 1
            guard stack.count < limits.maxDepth, count <= limits.maxElements, attributes.count <= limits.maxAttributes else {
                error = ArtifactError(
                    "XML",
                    file: file,
                    "line \(parser.lineNumber): over the limits of \(limits.maxDepth) levels, \(limits.maxElements) elements, \(limits.maxAttributes) attributes"
                )
                parser.abortParsing()
                return
            }
            var scope = stack.last?.scope ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
            for (key, value) in attributes where key == "xmlns" || key.hasPrefix("xmlns:") {
                scope[key == "xmlns" ? "" : String(key.dropFirst(6))] = value
            }
            let (prefix, local) = Self.split(elementName)
            var element = AndroidXMLElement(namespace: scope[prefix ?? ""].flatMap { $0.isEmpty ? nil : $0 }, name: local, line: parser.lineNumber)
            for key in attributes.keys.sorted() where key != "xmlns" && !key.hasPrefix("xmlns:") {
                let (attributePrefix, name) = Self.split(key)
                let value = attributes[key]!
                let typed: AndroidXMLValue = value.hasPrefix("@") || value.hasPrefix("?") ? .unresolvedReference(value) : .string(value)
                element.attributes.append(AndroidXMLAttribute(namespace: attributePrefix.flatMap { scope[$0] }, name: name, raw: value, value: typed))
            }
            stack.append((element, scope))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let (element, _) = stack.popLast() else { return }
            if stack.isEmpty {
                if root == nil { root = element }
            } else {
                stack[stack.count - 1].element.children.append(element)
            }
        }

        private static func split(_ name: String) -> (String?, String) {
            guard let colon = name.firstIndex(of: ":") else { return (nil, name) }
            return (String(name[..<colon]), String(name[name.index(after: colon)...]))
        }
    }
}
