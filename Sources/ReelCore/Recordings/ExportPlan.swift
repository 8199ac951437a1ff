import Foundation

/// What `reel export --from … --to …` cuts out of a camera's segments without encoding:
/// from the keyframe at or before `from` (the first picture that decodes on its own) to
/// `to`, joined across the segments the span covers.
public struct ExportPlan: Sendable, Hashable {
    /// A part of one segment: seconds after its first picture.
    public struct Piece: Sendable, Hashable {
        /// The segment's file name.
        public var file: String
        /// Where the piece starts (a keyframe in the first piece; 0 in the others).
        public var start: Double
        /// Where the piece ends (the segment's end in all but the last piece).
        public var end: Double
    }

    /// The pieces, in time order.
    public var pieces: [Piece]
    /// The wall-clock time of the export's first picture (the keyframe at or before `from`).
    public var firstPicture: Date
    /// Seconds from that keyframe to `from`: what `--exact` encodes again and drops.
    public var leadIn: Double
    /// A stretch of the span that no segment covers (the camera was away).
    public struct Gap: Sendable, Hashable {
        /// Where it starts.
        public var from: Date
        /// Where it ends.
        public var to: Date
    }

    /// The gaps inside the span, over a second each.
    public var gaps: [Gap]

    /// The plan for `from` up to `to` over `entries` (an index, in any order).
    public static func plan(_ entries: [RecordingIndexEntry], from: Date, to: Date) throws(ExportPlanError) -> ExportPlan {
        guard to > from else { throw .emptySpan }
        let covering = entries.filter { $0.last >= from && $0.first < to }.sorted { $0.first < $1.first }
        guard let opening = covering.first else { throw .nothingRecorded }
        // The first piece starts at the keyframe at or before `from`, or at its segment's
        // start when `from` comes before the segment.
        let offset = max(0, from.timeIntervalSince(opening.first))
        let keyframe = opening.keyframes.last { $0 <= offset + 1e-6 } ?? 0
        var pieces: [Piece] = []
        var gaps: [Gap] = []
        var reached = from
        for (index, entry) in covering.enumerated() {
            if entry.first > reached.addingTimeInterval(1) { gaps.append(Gap(from: reached, to: entry.first)) }
            let start = index == 0 ? keyframe : 0
            let end = min(entry.last, to).timeIntervalSince(entry.first)
            if end > start || index == 0 { pieces.append(Piece(file: entry.file, start: start, end: max(end, start))) }
            reached = max(reached, entry.last)
        }
        if reached.addingTimeInterval(1) < to { gaps.append(Gap(from: reached, to: to)) }
        let firstPicture = opening.first.addingTimeInterval(keyframe)
        return ExportPlan(pieces: pieces, firstPicture: firstPicture, leadIn: max(0, from.timeIntervalSince(firstPicture)), gaps: gaps)
    }
}

/// Why nothing can be exported.
public enum ExportPlanError: Error, Equatable, CustomStringConvertible {
    /// `--to` is not after `--from`.
    case emptySpan
    /// No segment holds any of the span.
    case nothingRecorded

    /// One line for the user.
    public var description: String {
        switch self {
        case .emptySpan: "--to must come after --from"
        case .nothingRecorded: "nothing was recorded between --from and --to"
        }
    }
}
