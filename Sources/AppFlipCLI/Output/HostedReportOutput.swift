import AppFlipCore
import ArgumentParser
import FoundationEssentials

/// How `aasa check` and `assetlinks check` hand out a hosted file's report: JUnit XML to `--junit FILE`, the
/// report as one JSON object (`--json`) or as text, then the exit status `appflip audit` uses: 0 every check
/// passed, 2 a check failed, 1 the checks could not run (or FILE cannot be written).
enum HostedReportOutput {
    static func write<Details>(_ report: HostedReport<Details>, json: Bool, junit: String?) throws {
        if let junit {
            do {
                try Data(report.junitXML.utf8).write(to: URL(filePath: junit))
            } catch {
                StandardStreams.writeError("appflip: cannot write \(junit): \(error)")
                throw ExitCode(1)
            }
        }
        if json {
            StandardStreams.writeLine(report.json.compactJSON)
        } else {
            for line in report.textLines { StandardStreams.writeLine(line) }
        }
        if report.couldNotRun != nil { throw ExitCode(1) }
        if !report.failures.isEmpty { throw ExitCode(2) }
    }
}
