import Glibc

/// Wall-clock seconds, comparable with the daemon's event times on the same machine.
public enum WallClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    public static func since(_ start: Double) -> Double { (now() - start) * 1000 }
    public static func between(_ start: Double, _ end: Double) -> Double { (end - start) * 1000 }
}
