import ReelCore

/// Turns a player's events into mpv's IPC events, in mpv's order: `start-file`,
/// `file-loaded`, `playback-restart` (the first picture, and each seek's), `seek`,
/// `pause`/`unpause` (mpv 0.35 leaves these to `property-change` of `pause`; older
/// clients still listen for them), and one `end-file` per file with its reason (`eof`,
/// `stop`, `quit`, `error`); beyond mpv's, `gift-started` and `gift-finished` with the
/// animation's `id`.
struct MPVEventMapper {
    typealias Event = (name: String, fields: [String: JSONValue])

    private var state = PlayerState.idle
    private var fileOpen = false
    /// mpv's `playlist_entry_id` of the file open: from 1, one more for each file started.
    private var entry = 0
    /// Why the file ends when the player stops: `quit` or `stop` as asked over IPC.
    var stopReason = "stop"

    mutating func events(for event: PlayerEvent) -> [Event] {
        switch event {
        case .stateChanged(let next):
            defer { state = next }
            switch next {
            case .opening:
                let ended = endFile(reason: state == .ended ? "eof" : "stop")
                fileOpen = true
                entry += 1
                return ended + [("start-file", ["playlist_entry_id": .integer(entry)])]
            case .ready where state == .opening: return [("file-loaded", [:])]
            case .paused where state == .playing || state == .buffering: return [("pause", [:])]
            case .playing where state == .paused: return [("unpause", [:])]
            case .idle: return endFile(reason: stopReason)
            default: return []
            }
        case .firstFrame: return [("playback-restart", [:])]
        case .seekCompleted: return [("seek", [:]), ("playback-restart", [:])]
        case .endOfStream: return endFile(reason: "eof")
        case .error(let error): return endFile(reason: "error", ["file_error": .string(error.description)])
        case .itemFailed(_, _, let error): return endFile(reason: "error", ["file_error": .string(error.description)])
        case .overlayStarted(let id): return [("gift-started", ["id": .integer(id)])]
        case .overlayFinished(let id): return [("gift-finished", ["id": .integer(id)])]
        // Not each frame: 25 events a second per gift would flood a client reading commands' answers.
        case .overlayFrame: return []
        default: return []
        }
    }

    private mutating func endFile(reason: String, _ fields: [String: JSONValue] = [:]) -> [Event] {
        guard fileOpen else { return [] }
        fileOpen = false
        return [("end-file", fields.merging(["reason": .string(reason), "playlist_entry_id": .integer(entry)]) { _, ours in ours })]
    }
}
