import AppFlipFraming
import FuzzSupport
import NIOCore

/// Feeds a byte stream to a `LineReader` (with its `LineFrameDecoder`), as reads of varying size, and checks the lines it returns against
/// a plain split at `\n`: the same lines in order, none over the limit, and `LineTooLongError` exactly when a
/// line (terminated or not) is over it. The first byte picks the limit (0–63, so that refusals are common) and
/// the policy for an unterminated last line; the second the chunk sizes.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzBytes(start, count)
    guard input.count >= 2 else { return 0 }
    let maxLineBytes = Int(input[0] & 0x3F)
    let policy: LineFrameDecoder.UnterminatedLastLine = input[0] & 0x80 == 0 ? .deliver : .drop
    let stream = Array(input[2...])

    var reader = LineReader(LineFrameDecoder(maxLineBytes: maxLineBytes, unterminatedLastLine: policy))
    var lines: [[UInt8]] = []
    var refused = false
    var offset = 0
    var chunk = 0
    do {
        while offset < stream.count {
            let size = 1 + (Int(input[1]) &* (chunk + 1)) % 23
            let end = min(stream.count, offset + size)
            try reader.read(ByteBuffer(bytes: stream[offset..<end])) { lines.append(Array($0.readableBytesView)) }
            offset = end
            chunk += 1
        }
        try reader.finish { lines.append(Array($0.readableBytesView)) }
    } catch is LineTooLongError {
        refused = true
    } catch {
        fuzzCheck(false, "unexpected error \(error)")
    }

    // The reference: split at every newline; the text after the last one is the unterminated rest.
    let parts = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    var expected: [[UInt8]] = []
    var expectRefusal = false
    for (index, part) in parts.enumerated() {
        if part.count > maxLineBytes {
            expectRefusal = true
            break
        }
        let isRest = index == parts.count - 1
        if !isRest || (policy == .deliver && !part.isEmpty) { expected.append(part) }
    }
    fuzzCheck(refused == expectRefusal, "refused \(refused), expected \(expectRefusal), limit \(maxLineBytes)")
    fuzzCheck(lines == expected, "lines \(lines) differ from the split \(expected)")
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
