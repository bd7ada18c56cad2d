extension BinaryXMLReader {
    /// The document being read: the string pool and resource map once seen, and the open elements.
    struct State {
        let limits: XMLLimits
        var pool: StringPool?
        var resourceMap: [UInt32] = []
        var stack: [AndroidXMLElement] = []
        var root: AndroidXMLElement?
        var elementCount = 0

        init(limits: XMLLimits) { self.limits = limits }

        mutating func take(_ chunk: Chunk) throws {
            switch chunk.type {
            case StringPool.chunkType:
                guard pool == nil else { return }
                pool = try StringPool(chunk: ByteReader(chunk.reader, structure: "binary XML string pool"))
            case resourceMapType:
                let count = (chunk.reader.count - chunk.headerSize) / 4
                resourceMap = try (0..<count).map { try chunk.reader.uint32(at: chunk.headerSize + $0 * 4) }
            case startElementType: try startElement(chunk)
            case endElementType: try endElement(chunk)
            default: return
            }
        }

        private func strings(_ chunk: Chunk) throws -> StringPool {
            guard let pool else { throw chunk.reader.error("a node before the document's string pool", at: 0) }
            return pool
        }

        private mutating func startElement(_ chunk: Chunk) throws {
            let node = ByteReader(chunk.reader, structure: "binary XML start element")
            let pool = try strings(chunk)
            guard root == nil else { return }
            guard stack.count < limits.maxDepth else { throw node.error("elements nested deeper than \(limits.maxDepth)", at: 0) }
            elementCount += 1
            guard elementCount <= limits.maxElements else { throw node.error("more than \(limits.maxElements) elements", at: 0) }
            let ext = chunk.headerSize
            let line = try node.size32(at: 8)
            let namespace = try pool.optionalString(try node.uint32(at: ext))
            let name = try pool.string(Int(try node.uint32(at: ext + 4)))
            let attributeStart = Int(try node.uint16(at: ext + 8))
            let attributeSize = Int(try node.uint16(at: ext + 10))
            let attributeCount = Int(try node.uint16(at: ext + 12))
            guard attributeCount <= limits.maxAttributes else {
                throw node.error("\(attributeCount) attributes, over \(limits.maxAttributes)", at: ext + 12)
            }
            guard attributeCount == 0 || attributeSize >= 20 else { throw node.error("attributes of \(attributeSize) bytes, under 20", at: ext + 10) }
            var attributes: [AndroidXMLAttribute] = []
            for index in 0..<attributeCount {
                let at = ext + attributeStart + index * attributeSize
                try node.check(at, 20, "attribute #\(index)")
                attributes.append(try attribute(node, at: at, pool: pool))
            }
            stack.append(AndroidXMLElement(namespace: namespace, name: name, attributes: attributes, line: line))
        }

        /// A `ResXMLTree_attribute`: namespace, name, raw value and `Res_value`.
        private func attribute(_ node: ByteReader, at offset: Int, pool: StringPool) throws -> AndroidXMLAttribute {
            let nameIndex = try node.uint32(at: offset + 4)
            let type = try node.uint8(at: offset + 15)
            let data = try node.uint32(at: offset + 16)
            let value: AndroidXMLValue
            switch type {
            case AndroidXMLValue.DataType.string: value = .string(try pool.string(Int(data)))
            case AndroidXMLValue.DataType.reference, AndroidXMLValue.DataType.dynamicReference: value = .reference(data)
            case AndroidXMLValue.DataType.attribute: value = .attributeReference(data)
            case AndroidXMLValue.DataType.boolean: value = .boolean(data != 0)
            case AndroidXMLValue.DataType.intDecimal: value = .integer(Int32(bitPattern: data), hex: false)
            case AndroidXMLValue.DataType.intHex: value = .integer(Int32(bitPattern: data), hex: true)
            default: value = .other(type: type, data: data)
            }
            let id = Int(nameIndex) < resourceMap.count ? resourceMap[Int(nameIndex)] : nil
            return AndroidXMLAttribute(
                namespace: try pool.optionalString(try node.uint32(at: offset)),
                name: try pool.string(Int(nameIndex)),
                resourceID: id == 0 ? nil : id,
                raw: try pool.optionalString(try node.uint32(at: offset + 8)),
                value: value
            )
        }

        private mutating func endElement(_ chunk: Chunk) throws {
            guard root == nil else { return }
            guard let element = stack.popLast() else {
                throw chunk.reader.error("an end tag with no element open", at: 0)
            }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }

        func finish(_ document: ByteReader) throws -> AndroidXMLElement {
            guard pool != nil else { throw document.error("no string pool", at: 0) }
            guard let root else {
                throw document.error(stack.isEmpty ? "no element" : "the document ends with <\(stack.last!.name)> open", at: document.count)
            }
            return root
        }
    }
}
