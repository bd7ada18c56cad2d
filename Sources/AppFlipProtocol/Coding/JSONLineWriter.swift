import AppFlipCore
import FoundationEssentials

/// Writes protocol messages as compact JSON with sorted keys, byte for byte what
/// `JSONEncoder.protocolEncoder` writes. Only the hot messages are written by hand, without the encoder's
/// generic machinery: the daemon writes an `open` reply per handoff, an `activity` push per live-app
/// handoff and reads the `answer`, and `JSONEncoder` was a sixth of its CPU time. Every other message is
/// rare and goes through `JSONEncoder` itself.
///
/// `ServerMessage.encodedLine()`, `Request.encodedLine()` and `LineEncoder` use it; the protocol tests
/// check the hand-written messages against `JSONEncoder`.
struct JSONLineWriter: ~Copyable {
    /// Written through its pointer: `Array.append` checks uniqueness and capacity on every call, and a
    /// message is two dozen small appends (`Benchmarks/instructions-per-handoff` shows the difference).
    private var storage: UnsafeMutableRawBufferPointer
    private var count = 0
    private var needsComma = false

    init(capacity: Int = 256) {
        storage = .allocate(byteCount: max(capacity, 16), alignment: 1)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes written since the last ``reset()``; valid until the next write.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage[..<count])
    }

    /// Starts the next line in the same storage.
    mutating func reset() {
        count = 0
        needsComma = false
    }

    mutating func newline() {
        reserve(1)
        put(UInt8(ascii: "\n"))
    }

    /// Appends `value` as `encoder` writes it.
    mutating func append(encoded value: some Encodable, using encoder: JSONEncoder) {
        separate()
        // Protocol messages always encode: their only non-integer numbers are the clock's time and
        // `JSONValue` numbers, which `JSONValue` encodes as `null` when they are not finite.
        let data = try! encoder.encode(value)
        data.withUnsafeBytes { append($0) }
        needsComma = true
    }

    mutating func beginObject() {
        reserve(2)
        putSeparator()
        put(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        reserve(1)
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        reserve(2)
        putSeparator()
        put(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        reserve(1)
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"key":`; the value follows. Keys are the protocol's own names, which need no escape.
    mutating func key(_ key: StaticString) {
        // `withUTF8Buffer`, not `utf8Start`: that traps for a `StaticString` held as one scalar.
        key.withUTF8Buffer { name in
            reserve(name.count + 4)
            putSeparator()
            put(UInt8(ascii: "\""))
            put(UnsafeRawBufferPointer(name))
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: ":"))
        }
        needsComma = false
    }

    /// Writes `json`, members that never change (`"ok":true,"op":"open","result":`), as it is: one copy
    /// instead of a call per key and value, a tenth of a live-app handoff's encoding. It ends in a value,
    /// or in a key, `[` or `{` that a value follows.
    mutating func constant(_ json: StaticString) {
        json.withUTF8Buffer { json in
            reserve(json.count + 1)
            putSeparator()
            put(UnsafeRawBufferPointer(json))
            let last = json.last
            needsComma = !(last == UInt8(ascii: ":") || last == UInt8(ascii: "[") || last == UInt8(ascii: "{"))
        }
    }

    mutating func string(_ value: String) {
        // Read in place: `withUTF8` needs a mutable copy, and copying a string costs an atomic count.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !JSONText.needsEscape(utf8) else { return false }
            reserve(utf8.count + 3)
            putSeparator()
            put(UInt8(ascii: "\""))
            put(UnsafeRawBufferPointer(utf8))
            put(UInt8(ascii: "\""))
            return true
        }
        if copied != true {
            var escaped: [UInt8] = []
            JSONText.appendString(value, to: &escaped)
            separate()
            escaped.withUnsafeBytes { append($0) }
        }
        needsComma = true
    }

    mutating func integer(_ value: some BinaryInteger) {
        separate()
        if let value = Int64(exactly: value) {
            withDecimalDigits(of: value) { append($0) }
        } else {
            Array(String(value).utf8).withUnsafeBytes { append($0) }
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        let word: StaticString = value ? "true" : "false"
        word.withUTF8Buffer { word in
            reserve(word.count + 1)
            putSeparator()
            put(UnsafeRawBufferPointer(word))
        }
        needsComma = true
    }

    mutating func null() {
        reserve(5)
        putSeparator()
        ("null" as StaticString).withUTF8Buffer { put(UnsafeRawBufferPointer($0)) }
        needsComma = true
    }

    mutating func value(_ value: JSONValue) {
        separate()
        var json: [UInt8] = []
        value.write(to: &json)
        json.withUnsafeBytes { append($0) }
        needsComma = true
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    private mutating func separate() {
        reserve(1)
        putSeparator()
    }

    /// Writes the comma a value after another needs, into room that ``reserve(_:)`` made.
    @inline(__always)
    private mutating func putSeparator() {
        if needsComma { put(UInt8(ascii: ",")) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        put(bytes)
    }

    /// Makes room for `extra` more bytes, so that the `put`s that follow need no check.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard storage.count - count < extra else { return }
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(storage.count * 2, count + extra), alignment: 1)
        grown.copyMemory(from: bytes)
        storage.deallocate()
        storage = grown
    }

    /// Writes a byte into room that ``reserve(_:)`` made.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        storage[count] = byte
        count += 1
    }

    /// Writes bytes into room that ``reserve(_:)`` made.
    @inline(__always)
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        (storage.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }
}
