import BenchmarkThresholds
import Foundation
import Glibc
import ZIPFoundation

// How long `appflip app inspect` takes on a 200 MB APK and on a 200 MB .ipa, and the peak RSS of the appflip
// process that reads each, as ratios to issue 38's limits: inspected in under a second, with a peak RSS under
// 64 MB (docs/performance.md, "Artifacts"). Both artifacts are generated here, in a temporary folder:
// - the APK: the test app of Tests/AndroidArtifacts (its manifest and resources.arsc), with stored entries of
//   100 KiB of incompressible bytes up to the size, signed v1, v2 and v3 by apksigner;
// - the .ipa: Tests/AppleArtifacts/make_ios_artifacts.py --large-ipa, three fifths of it an incompressible,
//   signed executable (which the reader inflates as a stream), the rest stored resources.
// Each is inspected three times by the `appflip` built beside this benchmark, `--json`, each in its own
// process (whose peak RSS is the kernel's `ru_maxrss`), the file already in the page cache; every run must
// exit 0 and report the artifact's kind. The median time and the largest peak RSS of each artifact, each
// divided by its limit, are held to Benchmarks/Thresholds/artifacts.json (`--thresholds FILE` names another,
// `--no-thresholds` skips it): a broken threshold exits 1.
//
//   swift build -c release --product appflip && swift run -c release ArtifactBenchmark [--megabytes N]
//       [--thresholds FILE | --no-thresholds]

/// Issue 38's limits: a 200 MB artifact inspected in under a second, with a peak RSS under 64 MB.
let timeLimitSeconds = 1.0
let rssLimitBytes = 64.0 * 1_000_000

var arguments = Array(CommandLine.arguments.dropFirst())
var megabytes = 200
var thresholdsFile: String? = "Benchmarks/Thresholds/artifacts.json"
while let option = arguments.first {
    switch (option, arguments.dropFirst().first) {
    case ("--megabytes", let value?) where Int(value).map({ $0 > 0 }) == true: megabytes = Int(value)!
    case ("--thresholds", let value?): thresholdsFile = value
    case ("--no-thresholds", _):
        thresholdsFile = nil
        arguments.removeFirst()
        continue
    default:
        print("usage: ArtifactBenchmark [--megabytes N] [--thresholds FILE | --no-thresholds]")
        exit(64)
    }
    arguments.removeFirst(2)
}

struct BenchmarkFailure: Error, CustomStringConvertible { let description: String }

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let appflip = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("appflip").path
guard FileManager.default.isExecutableFile(atPath: appflip) else {
    print("ArtifactBenchmark: no appflip beside this benchmark (\(appflip)): build it in the same configuration first")
    exit(64)
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("artifact-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

/// Runs a tool found on PATH, failing the benchmark when it fails.
func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkFailure(description: "\(tool) failed: \(output)") }
}

/// The test app with stored entries of incompressible bytes up to `megabytes`, signed v1, v2 and v3.
func largeAPK(megabytes: Int) throws -> URL {
    let artifacts = repository.appendingPathComponent(".build/android-test-artifacts")
    try run(repository.appendingPathComponent("Tests/AndroidArtifacts/make-test-artifacts").path, [artifacts.path])
    let template = try Archive(url: artifacts.appendingPathComponent("app-unsigned.apk"), accessMode: .read)
    let unsigned = work.appendingPathComponent("large-unsigned.apk")
    let archive = try Archive(url: unsigned, accessMode: .create)
    for entry in template {
        var bytes = Data()
        _ = try template.extract(entry) { bytes.append($0) }
        try archive.addEntry(with: entry.path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .none) { position, length in
            bytes.subdata(in: Int(position)..<Int(position) + length)
        }
    }
    var filler = Data(count: 100 << 10)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for index in 0..<(megabytes * 1_000_000 / filler.count) {
        filler.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count, by: 8) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: seed) { buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: 8) }
            }
        }
        try archive.addEntry(with: "assets/filler/\(index).bin", type: .file, uncompressedSize: Int64(filler.count), compressionMethod: .none) {
            position,
            length in
            filler.subdata(in: Int(position)..<Int(position) + length)
        }
    }
    let keystore = work.appendingPathComponent("bench.p12").path
    try run(
        "keytool",
        [
            "-genkeypair", "-keystore", keystore, "-storetype", "PKCS12", "-storepass", "android", "-keypass", "android", "-alias", "bench",
            "-dname", "CN=bench", "-keyalg", "RSA", "-keysize", "2048", "-validity", "1000",
        ]
    )
    let apk = work.appendingPathComponent("large.apk")
    try run(
        "apksigner",
        [
            "sign", "--ks", keystore, "--ks-pass", "pass:android", "--v1-signing-enabled", "true", "--v4-signing-enabled", "false",
            "--in", unsigned.path, "--out", apk.path,
        ]
    )
    try FileManager.default.removeItem(at: unsigned)
    return apk
}

/// An .ipa of about `megabytes` from the iOS artifact script.
func largeIPA(megabytes: Int) throws -> URL {
    let ipa = work.appendingPathComponent("large.ipa")
    try run(
        "python3",
        [repository.appendingPathComponent("Tests/AppleArtifacts/make_ios_artifacts.py").path, "--large-ipa", ipa.path, "\(megabytes)"]
    )
    return ipa
}

/// One `appflip app inspect --json FILE` in its own process: its wall time from spawn to exit, its peak RSS in
/// bytes, and the JSON it printed.
func inspect(_ file: URL) throws -> (seconds: Double, peakBytes: Double, report: [String: Any]) {
    let out = work.appendingPathComponent("report.json").path
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(appflip), strdup("app"), strdup("inspect"), strdup("--json"), strdup(file.path), nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let clock = ContinuousClock()
    let start = clock.now
    var pid: pid_t = 0
    guard posix_spawn(&pid, appflip, &actions, nil, argv, environ) == 0 else { throw BenchmarkFailure(description: "cannot run \(appflip)") }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { throw BenchmarkFailure(description: "wait4 failed: \(errno)") }
    let elapsed = clock.now - start
    let printed = try Data(contentsOf: URL(fileURLWithPath: out))
    guard status == 0, let report = try? JSONSerialization.jsonObject(with: printed) as? [String: Any] else {
        throw BenchmarkFailure(description: "appflip app inspect \(file.path) failed (status \(status)): \(String(decoding: printed, as: UTF8.self))")
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (seconds, Double(usage.ru_maxrss) * 1024, report)
}

func format(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }

var figures: [String: Double] = [:]
for (name, kind, make) in [("APK", "apk", largeAPK), ("IPA", "ipa", largeIPA)] as [(String, String, (Int) throws -> URL)] {
    let file = try make(megabytes)
    let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    print("ArtifactBenchmark: \(name), \(format(Double(size) / 1_000_000, 1)) MB, inspected by \(appflip)")
    var times: [Double] = []
    var peaks: [Double] = []
    for round in 1...3 {
        let (seconds, peak, report) = try inspect(file)
        guard report["kind"] as? String == kind else {
            throw BenchmarkFailure(description: "\(file.path) was read as \(report["kind"] ?? "nothing")")
        }
        times.append(seconds)
        peaks.append(peak)
        print(
            "  round \(round): \(format(seconds, 3)) s (\(format(seconds / timeLimitSeconds, 3))× the 1 s limit), peak RSS \(format(peak / 1_000_000, 1)) MB (\(format(peak / rssLimitBytes, 3))× the 64 MB limit)"
        )
    }
    figures["\(name): inspect time / the 1 s limit"] = times.sorted()[1] / timeLimitSeconds
    figures["\(name): peak RSS / the 64 MB limit"] = peaks.max()! / rssLimitBytes
    try FileManager.default.removeItem(at: file)
}

if let thresholdsFile {
    do {
        let (lines, passed) = try Thresholds.load(from: thresholdsFile).report(figures)
        for line in lines { print(line) }
        if !passed { exit(1) }
    } catch {
        print("\(error) (give --thresholds FILE, or --no-thresholds)")
        exit(64)
    }
}
