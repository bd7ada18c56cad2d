import Foundation
import ZIPFoundation

/// A zip archive (an APK, an AAB) opened for reading a few entries: its central directory is read where it
/// lies (``ZipDirectory``), each entry asked for is inflated by ZIPFoundation within ``ArchiveLimits``, and
/// nothing else of the archive is read.
public final class ArtifactArchive {
    public let file: String
    public let source: any ByteSource
    public let directory: ZipDirectory
    public let limits: ArchiveLimits
    private let archive: Archive
    /// ZIPFoundation's entries by name, listed once on first use.
    private var zipEntries: [String: ZIPFoundation.Entry]?

    /// Opens the archive at `path`.
    public convenience init(path: String, limits: ArchiveLimits = .standard) throws {
        let source = try FileBytes(path: path)
        let directory = try ZipDirectory(source: source, file: path, limits: limits)
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw ArtifactError(
                ZipDirectory.eocdStructure,
                file: path,
                offset: directory.endOfCentralDirectoryOffset,
                "ZIPFoundation cannot open the archive: \(error)"
            )
        }
        self.init(file: path, source: source, directory: directory, archive: archive, limits: limits)
    }

    /// Opens an archive held in memory (a test's or a fuzzer's), named `file` in errors.
    public convenience init(bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws {
        let source = MemoryBytes(bytes)
        let directory = try ZipDirectory(source: source, file: file, limits: limits)
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw ArtifactError(
                ZipDirectory.eocdStructure,
                file: file,
                offset: directory.endOfCentralDirectoryOffset,
                "ZIPFoundation cannot open the archive: \(error)"
            )
        }
        self.init(file: file, source: source, directory: directory, archive: archive, limits: limits)
    }

    private init(file: String, source: any ByteSource, directory: ZipDirectory, archive: Archive, limits: ArchiveLimits) {
        self.file = file
        self.source = source
        self.directory = directory
        self.archive = archive
        self.limits = limits
    }

    /// Whether the archive has an entry of that name.
    public func contains(_ name: String) -> Bool { directory.byName[name] != nil }

    /// The entry's bytes, inflated, or nil when there is no such entry. Refuses an entry that inflates past
    /// `maxEntryBytes` or `maxRatio` times its stored size, whatever its header declares, and one whose
    /// CRC-32 does not match.
    public func read(_ name: String) throws -> [UInt8]? {
        guard let record = directory.byName[name] else { return nil }
        let structure = "zip entry"
        func refuse(_ message: String) -> ArtifactError {
            ArtifactError(structure, file: "\(file)!\(name)", offset: record.localHeaderOffset, message)
        }
        let ceiling = min(
            limits.maxEntryBytes,
            record.method == 0 ? Int.max : max(record.compressedSize, 1).multipliedReportingOverflow(by: limits.maxRatio).partialValue
        )
        guard record.uncompressedSize <= ceiling else {
            throw refuse(
                "declares \(record.uncompressedSize) bytes from \(record.compressedSize): over the limit of \(ceiling) (\(limits.maxEntryBytes) bytes, \(limits.maxRatio):1)"
            )
        }
        guard let entry = try zipEntry(name) else { throw refuse("listed in the central directory but not found by ZIPFoundation") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(record.uncompressedSize, ceiling))
        do {
            _ = try archive.extract(entry, bufferSize: 64 << 10, skipCRC32: false) { chunk in
                guard chunk.count <= ceiling - bytes.count else { throw InflateLimit() }
                bytes.append(contentsOf: chunk)
            }
        } catch is InflateLimit {
            throw refuse("inflates past \(ceiling) bytes (\(limits.maxEntryBytes) bytes, \(limits.maxRatio):1): a zip bomb or a forged size")
        } catch {
            throw refuse("cannot be read: \(error)")
        }
        return bytes
    }

    private struct InflateLimit: Error {}

    /// ZIPFoundation's entry for `name`, listing them all once.
    private func zipEntry(_ name: String) throws -> ZIPFoundation.Entry? {
        if let zipEntries { return zipEntries[name] }
        var map: [String: ZIPFoundation.Entry] = [:]
        for entry in archive where directory.byName[entry.path] != nil && map[entry.path] == nil {
            map[entry.path] = entry
        }
        zipEntries = map
        return map[name]
    }
}
