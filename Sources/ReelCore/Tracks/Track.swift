/// A video, audio or subtitle track of an input, as a player lists them: numbered from 1
/// within its type, as mpv's `--aid`, `--sid` and `--vid` count them.
public struct Track: Sendable, Equatable, Identifiable {
    /// Video, audio or subtitle.
    public var type: MediaType
    /// The track's number within its type, from 1 (mpv's track id).
    public var number: Int
    /// The stream's index in the input (FFmpeg's `-map 0:N`).
    public var streamIndex: Int
    /// FFmpeg's short codec name (`aac`, `subrip`, `hdmv_pgs_subtitle`…).
    public var codec: String
    /// The language the container tags (`eng`), when it does.
    public var language: String?
    /// The title the container gives (`Director's commentary`), when it does.
    public var title: String?
    /// Marked to be played when nothing else is asked for.
    public var isDefault: Bool
    /// Marked to be shown even when the viewer asked for no subtitles (forced subtitles).
    public var isForced: Bool
    /// The file the track comes from when it is not the input's own (a subtitle file
    /// loaded beside the video); ``streamIndex`` is then the stream's index in that file.
    public var file: String?

    /// A track described field by field (``tracks(of:)`` lists an input's own).
    public init(type: MediaType, number: Int, streamIndex: Int, codec: String, language: String? = nil, title: String? = nil,
                isDefault: Bool = false, isForced: Bool = false, file: String? = nil) {
        self.type = type
        self.number = number
        self.streamIndex = streamIndex
        self.codec = codec
        self.language = language
        self.title = title
        self.isDefault = isDefault
        self.isForced = isForced
        self.file = file
    }

    /// The type and number, unique within an input.
    public var id: String { "\(type.rawValue)-\(number)" }

    /// The playable tracks of `info` (video, audio and subtitle streams; not cover art),
    /// in stream order, numbered within their type.
    public static func tracks(of info: MediaInfo) -> [Track] {
        var counts: [MediaType: Int] = [:]
        return info.streams.compactMap { stream in
            guard [.video, .audio, .subtitle].contains(stream.type), stream.disposition["attached_pic"] != true else { return nil }
            counts[stream.type, default: 0] += 1
            return Track(type: stream.type, number: counts[stream.type]!, streamIndex: stream.index, codec: stream.codecName,
                         language: stream.language, title: stream.tags["title"],
                         isDefault: stream.disposition["default"] == true, isForced: stream.disposition["forced"] == true)
        }
    }

    /// A line as mpv lists tracks: `Audio 2 eng 'Commentary' (aac) default`.
    public var description: String {
        var parts = ["\(type.rawValue.prefix(1).uppercased())\(type.rawValue.dropFirst()) \(number)"]
        if let language { parts.append(language) }
        if let title { parts.append("'\(title)'") }
        parts.append("(\(codec))")
        if isDefault { parts.append("default") }
        if isForced { parts.append("forced") }
        if file != nil { parts.append("external") }
        return parts.joined(separator: " ")
    }
}

/// Which track of a type to play, as mpv's `--aid`/`--sid` and `--alang`/`--slang` say.
public enum TrackRequest: Sendable, Equatable {
    /// The first track in `languages` order (ISO 639 codes; `en` also matches `eng`); the
    /// track marked default when none matches or none is given; else the first track.
    case automatic(languages: [String] = [])
    /// Track `number` of the type (from 1).
    case number(Int)
    /// No track of this type.
    case none

    /// The track chosen among `tracks` of `type`; nil for `.none`, a number that does not
    /// exist, or a type with no tracks.
    public func choose(_ type: MediaType, among tracks: [Track]) -> Track? {
        let candidates = tracks.filter { $0.type == type }
        switch self {
        case .none:
            return nil
        case .number(let number):
            return candidates.first { $0.number == number }
        case .automatic(let languages):
            for language in languages {
                if let match = candidates.first(where: { Self.language($0.language, matches: language) }) { return match }
            }
            return candidates.first(where: \.isDefault) ?? candidates.first
        }
    }

    /// The subtitle track chosen among `tracks`, by mpv's rule for subtitles: unlike audio,
    /// `automatic` shows one only when it is wanted: the first in `languages` order, else
    /// an external file's, else one the input marks default or forced; otherwise none.
    public func chooseSubtitle(among tracks: [Track]) -> Track? {
        guard case .automatic(let languages) = self else { return choose(.subtitle, among: tracks) }
        let candidates = tracks.filter { $0.type == .subtitle }
        for language in languages {
            if let match = candidates.first(where: { Self.language($0.language, matches: language) }) { return match }
        }
        return candidates.first { $0.file != nil } ?? candidates.first { $0.isDefault || $0.isForced }
    }

    /// Parses mpv's forms: `no`, `auto`, or a number from 1.
    public init?(mpvTrackID text: String) {
        switch text {
        case "no": self = .none
        case "auto": self = .automatic()
        default:
            guard let number = Int(text), number >= 1 else { return nil }
            self = .number(number)
        }
    }

    /// Equal ignoring case, or a two-letter code that begins the track's three-letter one
    /// (`en` and `eng`; `de` does not reach `ger`, the bibliographic form).
    static func language(_ trackLanguage: String?, matches wanted: String) -> Bool {
        guard let trackLanguage = trackLanguage?.lowercased() else { return false }
        let wanted = wanted.lowercased()
        return trackLanguage == wanted || (wanted.count == 2 && trackLanguage.count == 3 && trackLanguage.hasPrefix(wanted))
    }
}
