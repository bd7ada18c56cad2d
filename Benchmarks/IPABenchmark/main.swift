import AppFlipArtifacts
import Foundation

// Inspects a large .ipa (or any iOS artifact) and prints what it read or why it refused it, how long it took,
// and the process's peak resident set (VmHWM) before and after: figures, never assertions (docs/performance.md).
// Without a file, it first builds an .ipa of MEGABYTES (200 by default) with
// Tests/AppleArtifacts/make_ios_artifacts.py, most of it an incompressible executable.
//
//   swift run -c release IPABenchmark [--megabytes N | FILE.ipa]

func peakResidentKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

func largeIPA(megabytes: Int) throws -> String {
    let repository = #filePath.components(separatedBy: "/Benchmarks/").first!
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-large-\(megabytes).ipa").path
    if FileManager.default.fileExists(atPath: path) { return path }
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", repository + "/Tests/AppleArtifacts/make_ios_artifacts.py", "--large-ipa", path, String(megabytes)]
    try python.run()
    python.waitUntilExit()
    guard python.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return path
}

var arguments = CommandLine.arguments.dropFirst()
var megabytes = 200
if arguments.first == "--megabytes", let value = arguments.dropFirst().first.flatMap({ Int($0) }) {
    megabytes = value
    arguments = arguments.dropFirst(2)
}
let path = try arguments.first ?? largeIPA(megabytes: megabytes)
let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
let before = peakResidentKilobytes()
let clock = ContinuousClock()
let start = clock.now
let outcome: String
do {
    if let report = try IOSArtifacts.inspect(path: path, now: Date()) {
        let executable = report.app.executable?.value.slices.map(\.size).reduce(0, +) ?? 0
        outcome = "read: \(report.kind.rawValue), executable \(executable) bytes"
    } else {
        outcome = "not an iOS artifact"
    }
} catch {
    outcome = "refused: \(error)"
}
let elapsed = clock.now - start
let after = peakResidentKilobytes()
print("\(path), \(size) bytes: \(outcome)")
print("inspected in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
print("peak RSS (VmHWM): \(before / 1024) MiB before, \(after / 1024) MiB after")
