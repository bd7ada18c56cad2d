import Glibc

/// The log writer's queue of packed records: bytes appended with a bounds check and a `memcpy`, because
/// `Array`'s appends (a uniqueness check and a generic copy per value) made packing a handoff record cost
/// the event loop more than the record is worth (`Benchmarks/instructions-per-handoff` shows it).
///
/// Noncopyable, so that one value owns its allocation and frees it in `deinit`, as NIO's `ByteBuffer`
/// storage does: a copy that outlived the buffer it shared could not compile.
struct PackedBytes: ~Copyable {
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0

    /// The bytes written so far.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count)
    }

    init() {}

    deinit {
        free(base)
    }

    /// Moves the bytes out, leaving this value empty (no memory) in their place.
    mutating func take() -> PackedBytes {
        var taken = PackedBytes()
        swap(&self, &taken)
        return taken
    }

    @inline(__always)
    mutating func append(_ source: UnsafeRawBufferPointer) {
        reserve(source.count)
        copy(source)
    }

    /// Copies `source` to the end, in room already reserved.
    @inline(__always)
    private mutating func copy(_ source: UnsafeRawBufferPointer) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        (base! + count).copyMemory(from: start, byteCount: source.count)
        count += source.count
    }

    /// Appends `value`'s bytes as they lie in memory (little-endian here).
    @inline(__always)
    mutating func append<Value: FixedWidthInteger>(raw value: Value) {
        reserve(MemoryLayout<Value>.size)
        base!.storeBytes(of: value.littleEndian, toByteOffset: count, as: Value.self)
        count += MemoryLayout<Value>.size
    }

    /// Appends a packed value's 2-byte `header`, then `parts`' total length (4 bytes) and their bytes, with
    /// one check of the room left.
    @inline(__always)
    mutating func append(header: UInt16, text first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer = .init(start: nil, count: 0)) {
        let length = first.count + second.count
        reserve(6 + length)
        base!.storeBytes(of: header.littleEndian, toByteOffset: count, as: UInt16.self)
        base!.storeBytes(of: UInt32(length).littleEndian, toByteOffset: count + 2, as: UInt32.self)
        count += 6
        copy(first)
        copy(second)
    }

    /// Appends a packed value's 2-byte `header`, then `number`'s 8 bytes.
    @inline(__always)
    mutating func append(header: UInt16, number: Int64) {
        reserve(10)
        base!.storeBytes(of: header.littleEndian, toByteOffset: count, as: UInt16.self)
        base!.storeBytes(of: number.littleEndian, toByteOffset: count + 2, as: Int64.self)
        count += 10
    }

    /// Writes `value` over the bytes at `offset`, already appended.
    @inline(__always)
    mutating func store(_ value: UInt32, at offset: Int) {
        precondition(offset + 4 <= count)
        base!.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// Forgets the bytes from `offset` on, keeping the memory.
    mutating func truncate(to offset: Int) {
        precondition(offset <= count)
        count = offset
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    private mutating func grow(toHold extra: Int) {
        let grown = max(4096, capacity * 2, count + extra)
        guard let moved = realloc(base, grown) else { fatalError("out of memory for the log's queue") }
        base = moved
        capacity = grown
    }
}
