import AppFlipArtifacts

/// What `app inspect` prints for one artifact, whichever platform's readers made it: the facts as text for
/// people, and the same facts as one JSON object (docs/artifacts.md).
protocol ArtifactReport {
    func text(style: OutputStyle) -> String
    func printJSON() throws
}

extension AppInspection: ArtifactReport {
    func printJSON() throws { try OutputJSON.print(self) }
}

extension IOSArtifactReport: ArtifactReport {
    func text(style: OutputStyle) -> String { textLines.joined(separator: "\n") + "\n" }
    func printJSON() throws { try OutputJSON.print(json) }
}
