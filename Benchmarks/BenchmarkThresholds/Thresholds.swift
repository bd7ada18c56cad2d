import FoundationEssentials

/// A benchmark's thresholds, as SwiftNIO keeps its `Benchmarks/Thresholds`: one JSON file per benchmark in
/// `Benchmarks/Thresholds/`, mapping the name of a figure the benchmark prints to the bound it must keep
/// (`atMost` or `atLeast`), with why, and optionally a `goal` beyond the bound, reported but not enforced.
/// Only figures that mean the same on any machine are held to a bound: ratios within one run, and counts
/// (instructions, exchanges); never a time.
public struct Thresholds: Sendable, Equatable {
    public struct Threshold: Codable, Sendable, Equatable {
        public var atMost: Double?
        public var atLeast: Double?
        /// Where the figure should be some day, reported with each verdict.
        public var goal: Double?
        public var why: String

        public init(atMost: Double? = nil, atLeast: Double? = nil, goal: Double? = nil, why: String) {
            self.atMost = atMost
            self.atLeast = atLeast
            self.goal = goal
            self.why = why
        }

        /// Whether `value` keeps the bound.
        public func isKept(by value: Double) -> Bool {
            value.isFinite && (atMost.map { value <= $0 } ?? true) && (atLeast.map { value >= $0 } ?? true)
        }

        /// Whether `value` reaches the goal, when there is one.
        public func reachesGoal(_ value: Double) -> Bool? {
            guard let goal else { return nil }
            return atLeast != nil ? value >= goal : value <= goal
        }
    }

    /// One threshold's verdict on one run.
    public struct Verdict: Sendable, Equatable {
        public var name: String
        public var measured: Double?
        public var threshold: Threshold

        /// A figure measured and out of bounds.
        public var isBroken: Bool { measured.map { !threshold.isKept(by: $0) } ?? false }
    }

    /// Where the thresholds came from, for the report.
    public var path: String
    public var thresholds: [String: Threshold]

    public init(path: String, thresholds: [String: Threshold]) {
        self.path = path
        self.thresholds = thresholds
    }

    /// Reads `path`; a threshold with neither bound, or with both, is refused.
    public static func load(from path: String) throws(Unusable) -> Thresholds {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            throw Unusable(description: "cannot read the thresholds \(path): \(error)")
        }
        let thresholds: [String: Threshold]
        do {
            thresholds = try JSONDecoder().decode([String: Threshold].self, from: data)
        } catch {
            throw Unusable(description: "\(path) is not a thresholds file (name → {atMost|atLeast, goal?, why}): \(error)")
        }
        for (name, threshold) in thresholds where (threshold.atMost == nil) == (threshold.atLeast == nil) {
            throw Unusable(description: "\(path): \(name) needs exactly one of atMost and atLeast")
        }
        return Thresholds(path: path, thresholds: thresholds)
    }

    /// A thresholds file that cannot be read or makes no sense.
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every threshold's verdict on `measured`, by name.
    public func verdicts(_ measured: [String: Double]) -> [Verdict] {
        thresholds.keys.sorted().map { Verdict(name: $0, measured: measured[$0], threshold: thresholds[$0]!) }
    }

    /// The report of `measured` against these thresholds, one line per threshold, and whether it passes:
    /// no threshold broken, and at least one measured (else the benchmark no longer prints what the file names).
    public func report(_ measured: [String: Double]) -> (lines: [String], passed: Bool) {
        let verdicts = verdicts(measured)
        var lines = ["thresholds (\(path)):"] + verdicts.map { "  " + Self.line($0) }
        let measuredAny = verdicts.contains { $0.measured != nil }
        if verdicts.contains(where: \.isBroken) {
            lines.append("a threshold is broken")
        } else if !measuredAny {
            lines.append("none of these was measured")
        }
        return (lines, measuredAny && !verdicts.contains(where: \.isBroken))
    }

    /// `ok`, `BROKEN` or `-` (not measured in this run), the figure, its bound and its goal.
    public static func line(_ verdict: Verdict) -> String {
        let threshold = verdict.threshold
        let bound = threshold.atMost.map { "at most \(format($0))" } ?? threshold.atLeast.map { "at least \(format($0))" } ?? ""
        guard let measured = verdict.measured else { return "-       \(verdict.name): not measured in this run (\(bound))" }
        var line = "\(verdict.isBroken ? "BROKEN" : "ok    ")  \(verdict.name): \(format(measured)), \(bound)"
        if let goal = threshold.goal, let reached = threshold.reachesGoal(measured) {
            line += "; goal \(format(goal)): \(reached ? "met" : "not met")"
        }
        return line
    }

    /// Three significant decimals at most, without trailing zeros.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
