import Foundation

/// Where a viewer left an input, to start there the next time (`reel play
/// --save-position-on-quit`, the window's `Q`), as mpv's watch-later keeps it.
public struct ResumePoint: Codable, Sendable, Equatable {
    /// Seconds from the start of the input.
    public var position: Double
    /// The audio track played (its number among the audio tracks, from 1); nil for none.
    public var audioTrack: Int?
    /// The subtitle track shown (its number among the subtitle tracks, from 1); nil for none.
    public var subtitleTrack: Int?
    /// The volume, 0 to 1.
    public var volume: Double

    /// A point at `position` seconds with these tracks (their numbers; nil for none) and volume.
    public init(position: Double, audioTrack: Int?, subtitleTrack: Int?, volume: Double) {
        self.position = position
        self.audioTrack = audioTrack
        self.subtitleTrack = subtitleTrack
        self.volume = volume
    }
}

/// The resume points saved, one small JSON file per input in ``directory``
/// (`$XDG_STATE_HOME/reel/watch-later` by default), written whole or not at all.
///
/// A local file is known by its absolute path and its size (another file of another size
/// put in its place starts at the beginning), anything else by its URL, whose secrets are
/// masked before it is written down.
public struct ResumePoints: Sendable {
    /// What a saved file holds: the point, and the input it is for.
    private struct Saved: Codable {
        var input: String
        var point: ResumePoint
    }

    /// Where the files are.
    public let directory: String

    /// The points saved in `directory`.
    public init(directory: String = ResumePoints.defaultDirectory) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/reel/watch-later`, or `~/.local/state/reel/watch-later`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/reel/watch-later"
    }

    /// What `input` is known by: its absolute path and size for a local file, its URL
    /// (secrets masked) for anything else.
    public static func key(for input: String) -> String {
        guard !input.contains("://") else { return InputError.redactingSecrets(input) }
        let path = URL(fileURLWithPath: input).standardizedFileURL.path
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1
        return "\(path)#\(size)"
    }

    /// The file `input`'s point is saved in.
    public func path(for input: String) -> String {
        // FNV-1a: a file name from the key; the key inside tells two inputs apart.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Self.key(for: input).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return directory + "/" + String(hash, radix: 16) + ".json"
    }

    /// The point saved for `input`: nil when there is none; a file that cannot be read or
    /// is not one of these is left as it is and said in `warning`.
    public func load(_ input: String) -> (point: ResumePoint?, warning: String?) {
        let path = path(for: input)
        guard let data = FileManager.default.contents(atPath: path) else { return (nil, nil) }
        guard let saved = try? JSONDecoder().decode(Saved.self, from: data), saved.point.position.isFinite, saved.point.position >= 0,
              saved.point.volume.isFinite else {
            return (nil, "ignoring \(path): not a saved position Reel can read")
        }
        return saved.input == Self.key(for: input) ? (saved.point, nil) : (nil, nil)
    }

    /// Saves `point` for `input`, replacing what was there at once and whole.
    public func save(_ point: ResumePoint, for input: String) throws(OutputError) {
        let path = path(for: input)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(Saved(input: Self.key(for: input), point: point))
            // Written beside and renamed into place: a crash leaves the old file or the new.
            let file = PartialFile(path)
            try data.write(to: URL(fileURLWithPath: file.writingPath))
            try file.commit()
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(path, "\(error)")
        }
    }

    /// Removes the point saved for `input`, if any.
    public func forget(_ input: String) {
        try? FileManager.default.removeItem(atPath: path(for: input))
    }
}
