import AppFlipArtifacts
import Foundation
import Glibc
import ZIPFoundation

// Prints how long `app inspect`'s reading of a 200 MB APK takes and the peak RSS of the process that reads it,
// against the goal of under a second and 64 MB (docs/artifacts.md, "Speed and memory"). The APK is generated
// at run time: the test app's manifest and resources.arsc (scripts/android/make-test-artifacts), 2,000 stored
// entries of 100 KiB, signed v1, v2 and v3 by apksigner. The reading runs in a child process of its own, so
// that its peak RSS is the reader's and not the generator's.
//
//   swift run -c release ArtifactBenchmark [--size-mb N]

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--inspect" {
    let start = ContinuousClock.now
    let artifact = try AndroidArtifactReader.readAPK(try ArtifactArchive(path: arguments[2]))
    let elapsed = ContinuousClock.now - start
    print(
        "\(elapsed.components.seconds).\(String(format: "%06d", elapsed.components.attoseconds / 1_000_000_000_000)) \(artifact.manifest.components.count) \(artifact.signatures?.signers.count ?? 0)"
    )
    exit(0)
}

let sizeMB = arguments.firstIndex(of: "--size-mb").flatMap { Int(arguments[$0 + 1]) } ?? 200
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let artifacts = root.appendingPathComponent(".build/android-test-artifacts")
let work = FileManager.default.temporaryDirectory.appendingPathComponent("artifact-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

/// Runs a tool, failing the benchmark when it fails.
func run(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkFailure(message: "\(tool) failed: \(output)") }
    return output
}

struct BenchmarkFailure: Error { let message: String }

_ = try run(root.appendingPathComponent("scripts/android/make-test-artifacts").path, [artifacts.path])
let template = try Archive(url: artifacts.appendingPathComponent("app-unsigned.apk"), accessMode: .read)
let unsigned = work.appendingPathComponent("big-unsigned.apk")
let apk = work.appendingPathComponent("big.apk")
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
let entryCount = sizeMB * 1024 / 100
for index in 0..<entryCount {
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
_ = try run(
    "keytool",
    [
        "-genkeypair", "-keystore", keystore, "-storetype", "PKCS12", "-storepass", "android", "-keypass", "android", "-alias", "bench",
        "-dname", "CN=bench", "-keyalg", "RSA", "-keysize", "2048", "-validity", "1000",
    ]
)
_ = try run(
    "apksigner",
    [
        "sign", "--ks", keystore, "--ks-pass", "pass:android", "--v1-signing-enabled", "true", "--v4-signing-enabled", "false",
        "--in", unsigned.path, "--out", apk.path,
    ]
)
let size = try FileManager.default.attributesOfItem(atPath: apk.path)[.size] as? Int ?? 0

// The reading, three times, each in a fresh process (the first pays the page cache's misses).
print("ArtifactBenchmark: an APK of \(size / 1_000_000) MB, \(entryCount + 3) entries, signed v1, v2 and v3")
for round in 1...3 {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments[0]), strdup("--inspect"), strdup(apk.path), nil]
    let out = work.appendingPathComponent("out-\(round)").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard posix_spawn(&pid, CommandLine.arguments[0], &actions, nil, argv, environ) == 0 else {
        throw BenchmarkFailure(message: "cannot spawn the reader")
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let report = (try? String(contentsOfFile: out, encoding: .utf8))?.split(separator: " ") ?? []
    guard status == 0, report.count == 3 else { throw BenchmarkFailure(message: "the reader failed: status \(status)") }
    let seconds = Double(report[0]) ?? 0
    let megabytes = Double(usage.ru_maxrss) / 1024
    print(
        "round \(round): inspect \(String(format: "%.3f", seconds)) s (\(String(format: "%.3f", seconds))× the 1 s limit), peak RSS \(String(format: "%.1f", megabytes)) MB (\(String(format: "%.2f", megabytes / 64))× the 64 MB limit); \(report[1]) components, \(report[2].trimmingCharacters(in: .whitespacesAndNewlines)) signers"
    )
}
