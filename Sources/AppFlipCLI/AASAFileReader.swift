#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser

/// Reads an association file for the `aasa` commands, turning every failure into exit status 2.
enum AASAFileReader {
    /// Far above Apple's 128 KB limit (which validation reports as AASA170), low enough not to read a
    /// mistaken multi-gigabyte path into memory.
    static let readLimit = 16 * 1024 * 1024

    static func read(_ path: String) throws -> [UInt8] {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > readLimit {
                AASAStandardStreams.writeError("appflip: \(path) is \(size) bytes; apple-app-site-association files are at most 128 KB")
                throw ExitCode(2)
            }
            return Array(try Data(contentsOf: URL(filePath: path)))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            AASAStandardStreams.writeError("appflip: cannot read \(path): \(error)")
            throw ExitCode(2)
        }
    }
}
