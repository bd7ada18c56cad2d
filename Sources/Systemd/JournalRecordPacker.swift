import AppFlipCore

/// Packs one record of a ``JournalRecordKind`` into the log writer's queue, on the thread that logs it:
/// its message first, then its field values, copied as bytes.
///
/// The layout, read back by `PackedRecord`: the message's length (4 bytes) and bytes, then one value after
/// another: its type (1 byte: text or number), its field's index in the kind (1 byte), and a text's length
/// (4 bytes) and bytes, or a number's 8 bytes.
public struct JournalRecordPacker: ~Copyable {
    var storage: PackedBytes
    /// Where this record starts in ``storage``: the writer's queue holds many.
    let start: Int
    private var hasFields = false

    init(storage: consuming PackedBytes) {
        self.start = storage.count
        self.storage = storage
        self.storage.append(raw: UInt32(0))
    }

    /// The packed record: where it lies in ``storage``.
    var record: Range<Int> { start..<storage.count }

    /// Appends `text` to the record's message; every part of the message comes before the first value.
    public mutating func message(_ text: String) {
        precondition(!hasFields, "a record's message is packed before its fields")
        appendUTF8(text)
        storage.store(UInt32(storage.count - start - 4), at: start)
    }

    /// The text value of field number `field` of the kind.
    public mutating func text(_ field: Int, _ value: String) {
        let header = header(.text, field)
        if value.utf8.withContiguousStorageIfAvailable({ storage.append(header: header, text: UnsafeRawBufferPointer($0)) }) == nil {
            Array(value.utf8).withUnsafeBytes { storage.append(header: header, text: $0) }
        }
    }

    /// The text value of field number `field`: `value` followed by `number`'s decimal digits (`h-42`), spelled
    /// out here without a string in between.
    public mutating func text(_ field: Int, _ value: String, number: UInt64) {
        let header = header(.text, field)
        withDecimalDigits(of: number) { digits in
            if value.utf8.withContiguousStorageIfAvailable({ storage.append(header: header, text: UnsafeRawBufferPointer($0), digits) }) == nil {
                Array(value.utf8).withUnsafeBytes { storage.append(header: header, text: $0, digits) }
            }
        }
    }

    /// The number value of field number `field` of the kind.
    public mutating func number(_ field: Int, _ value: Int) {
        storage.append(header: header(.number, field), number: Int64(value))
    }

    /// A value's first two bytes: its type, then its field.
    private mutating func header(_ type: PackedRecord.ValueType, _ field: Int) -> UInt16 {
        precondition((0..<256).contains(field), "a record kind has at most 256 fields")
        hasFields = true
        return UInt16(type.rawValue) | UInt16(field) << 8
    }

    private mutating func appendUTF8(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ storage.append(UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { storage.append($0) }
        }
    }
}

/// One record as ``JournalRecordPacker`` packed it, read in place on the log writer's thread.
struct PackedRecord {
    enum ValueType: UInt8 {
        case text = 1
        case number = 2
    }

    enum Value {
        case text(UnsafeBufferPointer<UInt8>)
        case number(Int)
    }

    let bytes: UnsafeBufferPointer<UInt8>

    /// The message's bytes.
    var message: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[4..<4 + Self.length(at: 0, in: bytes)])
    }

    /// Calls `body` with each value and the index of its field, in the order they were packed.
    func forEachValue(_ body: (_ field: Int, _ value: Value) -> Void) {
        var index = 4 + Self.length(at: 0, in: bytes)
        while index + 2 <= bytes.count {
            let type = ValueType(rawValue: bytes[index])
            let field = Int(bytes[index + 1])
            index += 2
            switch type {
            case .text:
                let length = Self.length(at: index, in: bytes)
                body(field, .text(UnsafeBufferPointer(rebasing: bytes[index + 4..<index + 4 + length])))
                index += 4 + length
            case .number:
                precondition(index + 8 <= bytes.count, "a packed number has 8 bytes")
                let number = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: Int64.self)
                body(field, .number(Int(Int64(littleEndian: number))))
                index += 8
            case nil:
                preconditionFailure("a packed record holds only text and numbers")
            }
        }
    }

    private static func length(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        precondition(index + 4 <= bytes.count, "a packed length has 4 bytes")
        return Int(UInt32(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt32.self)))
    }
}
