import AppFlipCLI
import ArgumentParser
import BenchmarkThresholds
import FoundationEssentials

/// How `appflip-bench` holds its figures to thresholds (`Benchmarks/Thresholds`, docs/performance.md): each
/// mode with a file of its own checks what it measured and prints the verdicts, and `--check-thresholds` does
/// the same for the figures another benchmark measured.
struct BenchThresholdOptions: ParsableArguments {
    @Option(
        name: .customLong("thresholds"),
        help: ArgumentHelp(
            "The thresholds the figures are held to (default: the mode's file in Benchmarks/Thresholds, from the current directory).",
            valueName: "FILE"
        )
    )
    var file: String?

    @Flag(name: .customLong("no-thresholds"), help: "Print the figures without holding them to thresholds.")
    var skip = false

    @Option(
        name: .customLong("check-thresholds"),
        help: ArgumentHelp(
            "Only hold the figures of a JSON object read on stdin (figure name → number) to FILE's thresholds, print the verdicts and exit 1 when one is broken: how Benchmarks/bench-vs-c and Benchmarks/instructions-per-handoff check theirs.",
            valueName: "FILE"
        )
    )
    var standardInputFile: String?

    /// Holds `measured` to the thresholds of `mode` (`Benchmarks/Thresholds/MODE.json`, or `--thresholds`),
    /// printing the verdicts after the figures (to stderr with `--json`, so that stdout stays JSON); a broken
    /// threshold exits 1. `--no-thresholds` skips it.
    func check(_ measured: [String: Double], mode: String, json: Bool) throws {
        guard !skip else { return }
        try Self.check(measured, against: file ?? "Benchmarks/Thresholds/\(mode).json", toStandardError: json)
    }

    /// `--check-thresholds FILE`: the figures on stdin held to `FILE`.
    func checkStandardInput(_ path: String) throws {
        var bytes: [UInt8] = []
        while let line = readLine(strippingNewline: false) { bytes += Array(line.utf8) }
        let measured: [String: Double]
        do {
            measured = try JSONDecoder().decode([String: Double].self, from: Data(bytes))
        } catch {
            throw ValidationError("--check-thresholds reads a JSON object of figures (name → number) on stdin: \(error)")
        }
        try Self.check(measured, against: path, toStandardError: false)
    }

    private static func check(_ measured: [String: Double], against path: String, toStandardError: Bool) throws {
        let thresholds: Thresholds
        do {
            thresholds = try Thresholds.load(from: path)
        } catch {
            throw ValidationError("\(error) (give --thresholds FILE, or --no-thresholds)")
        }
        let (lines, passed) = thresholds.report(measured)
        var standardError = FileHandleOutputStream.standardError
        for line in lines {
            if toStandardError { print(line, to: &standardError) } else { print(line) }
        }
        if !passed { throw ExitCode(1) }
    }
}
