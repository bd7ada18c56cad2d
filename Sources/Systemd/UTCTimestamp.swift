import Glibc

/// A log line's time, `2026-11-25T16:15:22Z`, formatted once per second, because `strftime` for every line
/// showed in the handoff record's cost (`Benchmarks/LogBenchmark`).
struct UTCTimestamp {
    private var second: time_t?
    private var formatted: [UInt8] = []

    mutating func bytes(for time: time_t) -> [UInt8] {
        if time != second {
            second = time
            formatted = Self.format(time)
        }
        return formatted
    }

    private static func format(_ time: time_t) -> [UInt8] {
        var time = time
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return buffer[..<length].map { UInt8(bitPattern: $0) }
    }
}
