import ArgumentParser
import FoundationEssentials

/// Reads an association file for the `aasa` commands, turning every failure into exit status 2.
enum AASAFileReader {
    /// Far above Apple's 128 KB limit (which validation reports as AASA170), low enough not to read a
    /// mistaken multi-gigabyte path into memory.
    static let readLimit = 16 * 1024 * 1024

    static func read(_ path: String) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { try fail("cannot read \(path): no such file") }
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        if attributes[.type] as? FileAttributeType == .typeDirectory { try fail("cannot read \(path): it is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            try fail("cannot read \(path): permission denied")
        }
        let size = attributes[.size] as? Int ?? 0
        guard size <= readLimit else {
            try fail("\(path) is \(size) bytes; apple-app-site-association files are at most 128 KB")
        }
        do {
            return Array(try Data(contentsOf: URL(filePath: path)))
        } catch {
            try fail("cannot read \(path)")
        }
    }

    private static func fail(_ message: String) throws -> Never {
        StandardStreams.writeError("appflip: " + message)
        throw ExitCode(2)
    }
}
