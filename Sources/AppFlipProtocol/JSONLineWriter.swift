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
struct JSONLineWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    private var needsComma = false

    /// Starts the next line in the same storage.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends `value` as `encoder` writes it.
    mutating func append(encoded value: some Encodable, using encoder: JSONEncoder) {
        separate()
        // Protocol messages always encode: their only non-integer numbers are the clock's time and
        // `JSONValue` numbers, which `JSONValue` encodes as `null` when they are not finite.
        bytes.append(contentsOf: try! encoder.encode(value))
        needsComma = true
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"key":`; the value follows.
    mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        JSONText.appendString(value, to: &bytes)
        needsComma = true
    }

    mutating func integer(_ value: some BinaryInteger) {
        separate()
        if let value = Int64(exactly: value) {
            JSONText.appendInteger(value, to: &bytes)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        let word: StaticString = value ? "true" : "false"
        word.withUTF8Buffer { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    mutating func value(_ value: JSONValue) {
        separate()
        value.write(to: &bytes)
        needsComma = true
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
