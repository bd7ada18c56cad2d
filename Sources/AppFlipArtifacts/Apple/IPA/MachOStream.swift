/// Feeds a `MachOScanner` from bytes that arrive once, in order (an archive entry being inflated): it keeps only
/// the ranges the scanner wants and skips the rest, so an executable of any size costs the memory of its
/// headers, load commands and signatures.
struct MachOStream {
    private var scanner: MachOScanner
    private var position = 0
    private var pending: [UInt8] = []

    init(size: Int, name: String) throws(ArtifactError) {
        scanner = try MachOScanner(fileSize: size, file: name)
    }

    /// Takes the next bytes of the file.
    mutating func consume(_ chunk: [UInt8]) throws(ArtifactError) {
        var index = 0
        while index < chunk.count, let wanted = scanner.wanted {
            if wanted.isEmpty {
                try deliver()
                continue
            }
            let offset = position + index
            let next = wanted.lowerBound + pending.count
            if offset < next {
                index += min(next - offset, chunk.count - index)
                continue
            }
            // The scanner only ever asks for bytes after those it asked for before.
            guard offset == next else {
                throw ArtifactError("Mach-O file", file: scanner.file, offset: wanted.lowerBound, "a range before the bytes already read")
            }
            let take = min(wanted.upperBound - offset, chunk.count - index)
            pending += chunk[index..<(index + take)]
            index += take
            if pending.count == wanted.count { try deliver() }
        }
        position += chunk.count
        while let wanted = scanner.wanted, wanted.isEmpty { try deliver() }
    }

    /// The file, once every byte has been consumed.
    func finish() throws(ArtifactError) -> MachOFile {
        if let wanted = scanner.wanted {
            throw ArtifactError(
                "Mach-O file",
                file: scanner.file,
                offset: wanted.lowerBound,
                "the file ends before the \(wanted.count) bytes needed here"
            )
        }
        return scanner.result
    }

    private mutating func deliver() throws(ArtifactError) {
        let bytes = pending
        pending = []
        try scanner.supply(bytes)
    }
}
