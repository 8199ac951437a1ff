import Foundation
import ReelCore
import ReelFFmpeg

/// A ``Player`` as mpv's JSON IPC sees it: mpv's property names and commands mapped onto
/// the player's API, so that clients written for mpv (socat scripts, python-mpv-jsonipc,
/// desktop remotes) drive Reel.
///
/// Commands that take time (`loadfile`, switching the audio track, playlist moves) are
/// started and answered at once, as mpv answers them; their events follow.
///
/// Beyond mpv's: `gift-start SPEC` starts an animation over the picture (SPEC as
/// `reel play --overlay` takes it, ``OverlayRequest``) and answers its id; `gift-stop ID`
/// stops it; their starts and ends come as `gift-started` and `gift-finished` events.
public final class PlayerMPVTarget: MPVControlTarget, @unchecked Sendable {
    private let player: Player
    private let quit: @Sendable (_ code: Int, _ reason: String) -> Void
    private let makeGift: (@Sendable (OverlayRequest) throws -> any OverlayAnimation)?
    private let loads = LockedValue(0)

    /// - Parameters:
    ///   - quit: called for `quit` and `stop` with the exit code asked for and mpv's
    ///     `end-file` reason (`quit`, `stop`); the owner ends playback and exits.
    ///   - makeGift: makes the animation a `gift-start` asks for (such as ReelVAP's
    ///     `VAPOverlayAnimation`); without it, there are no gift commands.
    public init(player: Player, makeGift: (@Sendable (OverlayRequest) throws -> any OverlayAnimation)? = nil,
                quit: @escaping @Sendable (_ code: Int, _ reason: String) -> Void) {
        self.player = player
        self.makeGift = makeGift
        self.quit = quit
        commandNames = Self.mpvCommands + (makeGift == nil ? [] : ["gift-start", "gift-stop"])
    }

    /// Whether a `loadfile` is opening its input (the player goes through `idle` on the way).
    public var isLoading: Bool { loads.withLock { $0 > 0 } }

    public var propertyNames: [String] { Self.kinds.keys.sorted() }

    public let commandNames: [String]

    private static let mpvCommands = [
        "loadfile", "seek", "screenshot-to-file", "screenshot", "quit", "stop", "playlist-next", "playlist-prev",
        "frame-step", "frame-back-step", "show-text",
    ]

    public func kind(of property: String) -> MPVPropertyKind? { Self.kinds[property] }

    static let kinds: [String: MPVPropertyKind] = [
        "pause": .flag, "time-pos": .number, "playback-time": .number, "duration": .number, "percent-pos": .number,
        "time-remaining": .number, "volume": .number, "mute": .flag, "speed": .number, "aid": .track, "sid": .track,
        "vid": .track, "sub-visibility": .flag, "sub-delay": .number, "sub-scale": .number, "path": .string,
        "filename": .string, "media-title": .string, "file-format": .string, "eof-reached": .flag, "idle-active": .flag,
        "core-idle": .flag, "paused-for-cache": .flag, "width": .integer, "height": .integer, "container-fps": .number,
        "video-codec": .string, "track-list": .node, "chapter": .integer, "chapters": .integer, "chapter-list": .node,
        "playlist-pos": .integer, "playlist-count": .integer, "playlist": .node, "frame-drop-count": .integer,
        "demuxer-cache-time": .number, "mpv-version": .string,
    ]

    public func value(of property: String) -> JSONValue? {
        let state = player.state
        let info = player.mediaInfo
        let loaded = state != .idle && state != .opening && info != nil
        switch property {
        case "idle-active": return .bool(state == .idle)
        // Always there, as mpv's option is: paused once opened paused or paused since.
        case "pause": return .bool(state == .paused || state == .ready)
        case "mpv-version": return .string("Reel \(ReelRelease.version)")
        case "playlist-count": return .integer(player.playlist?.items.count ?? 0)
        case "playlist-pos": return .integer(player.playlist?.index ?? -1)
        case "playlist":
            guard let playlist = player.playlist else { return .array([]) }
            return .array(playlist.items.enumerated().map { index, item in
                index == playlist.index ? ["filename": .string(item), "current": true, "playing": true] : ["filename": .string(item)]
            })
        default: break
        }
        guard loaded, let info else { return nil }
        let video = info.preferredStream(of: .video)
        // Before the first picture, where playback starts, as mpv answers (its last seek position):
        // a client asking as soon as the file is loaded gets a time, not "property unavailable".
        let time = player.currentTime ?? 0
        let duration = player.duration
        switch property {
        case "core-idle": return .bool(state != .playing)
        case "paused-for-cache": return .bool(state == .buffering)
        case "eof-reached": return .bool(state == .ended)
        case "time-pos", "playback-time": return .number(time)
        case "duration": return duration.map(JSONValue.number)
        case "percent-pos":
            guard let duration, duration > 0 else { return nil }
            return .number(min(max(time / duration * 100, 0), 100))
        case "time-remaining":
            guard let duration else { return nil }
            return .number(max(duration - time, 0))
        case "demuxer-cache-time": return player.bufferedTime.map(JSONValue.number)
        case "volume": return .number(player.volume * 100)
        case "mute": return .bool(player.muted)
        case "speed": return .number(player.rate)
        case "aid": return player.currentAudioTrack.map { .integer($0.number) } ?? .bool(false)
        case "sid": return player.currentSubtitleTrack.map { .integer($0.number) } ?? .bool(false)
        case "vid": return videoTrack(info).map { .integer($0.number) } ?? .bool(false)
        case "sub-visibility": return .bool(player.subtitlesVisible)
        case "sub-delay": return .number(player.subtitleDelay)
        case "sub-scale": return .number(player.subtitleScale)
        case "path": return .string(info.format.url)
        case "filename": return .string(Self.filename(of: info.format.url))
        case "media-title": return .string(info.format.tags["title"] ?? Self.filename(of: info.format.url))
        case "file-format": return .string(info.format.name)
        case "width": return video?.width.map(JSONValue.integer)
        case "height": return video?.height.map(JSONValue.integer)
        case "container-fps": return (video?.averageFrameRate?.doubleValue).flatMap { $0.isFinite && $0 > 0 ? .number($0) : nil }
        case "video-codec": return video.map { .string($0.codecLongName ?? $0.codecName) }
        case "track-list": return .array(trackList(info))
        case "chapters": return .integer(player.chapters.count)
        case "chapter": return player.currentChapter.map(JSONValue.integer)
        case "chapter-list":
            return .array(player.chapters.map { chapter in
                ["title": .string(chapter.title ?? ""), "time": .number(chapter.startTime - (info.format.startTime ?? 0))]
            })
        case "frame-drop-count": return .integer(player.statistics.framesDropped)
        default: return nil
        }
    }

    public func set(_ property: String, to value: JSONValue) throws(MPVError) {
        guard player.state != .idle else { throw .propertyUnavailable }
        switch (property, value) {
        case ("pause", .bool(let paused)): paused ? player.pause() : player.play()
        case ("time-pos", _), ("playback-time", _): player.seek(to: value.double ?? 0, mode: .exact)
        case ("percent-pos", _):
            guard let duration = player.duration else { throw .propertyUnavailable }
            player.seek(to: duration * (value.double ?? 0) / 100, mode: .exact)
        case ("volume", _): player.volume = (value.double ?? 100) / 100
        case ("mute", .bool(let muted)): player.muted = muted
        case ("speed", _): player.rate = value.double ?? 1
        case ("sub-visibility", .bool(let visible)): player.subtitlesVisible = visible
        case ("sub-delay", _): player.subtitleDelay = value.double ?? 0
        case ("sub-scale", _): player.subtitleScale = value.double ?? 1
        case ("sid", _): try selectSubtitles(value)
        case ("aid", _): try selectAudio(value)
        case ("chapter", .integer(let index)):
            guard player.chapters.indices.contains(index) else { throw .propertyError }
            player.seek(toChapter: index)
        case ("playlist-pos", .integer(let index)):
            guard let playlist = player.playlist, playlist.items.indices.contains(index) else { throw .propertyError }
            let player = player
            Task { _ = try? await player.playItem(at: index) }
        default: throw .propertyError
        }
    }

    public func run(_ command: String, _ arguments: [JSONValue]) throws(MPVError) -> JSONValue {
        switch command {
        case "loadfile":
            guard let url = arguments.first?.string, !url.isEmpty else { throw .invalidParameter }
            let mode = arguments.count > 1 ? arguments[1].string ?? "replace" : "replace"
            switch mode {
            case "replace": load(url)
            case "append", "append-play":
                guard player.appendToPlaylist(url) else { throw .commandFailed }
            default: throw .invalidParameter
            }
        case "seek": try seek(arguments)
        case "screenshot-to-file":
            guard let path = arguments.first?.string else { throw .invalidParameter }
            do { try player.screenshot(to: path) } catch { throw .commandFailed }
        case "screenshot":
            do { return .string(try player.screenshot(inDirectory: player.configuration.screenshotDirectory)) } catch { throw .commandFailed }
        case "quit", "stop":
            let code = command == "quit" ? arguments.first.flatMap { $0.integer ?? $0.string.flatMap { Int($0) } } ?? 0 : 0
            quit(code, command)
        case "playlist-next", "playlist-prev":
            let offset = command == "playlist-next" ? 1 : -1
            guard var playlist = player.playlist, playlist.move(by: offset) != nil else { throw .commandFailed }
            let player = player
            Task { _ = try? await player.movePlaylist(by: offset) }
        case "frame-step": player.stepForward()
        case "frame-back-step": player.stepBackward()
        case "show-text":
            guard let text = arguments.first?.string else { throw .invalidParameter }
            let milliseconds = arguments.count > 1 ? arguments[1].numeric ?? 1000 : 1000
            player.showMessage(expand(text), seconds: max(milliseconds, 0) / 1000)
        case "cycle":
            guard let name = arguments.first?.string, name == "aid" || name == "sid" else { throw .propertyFormat }
            try cycleTrack(name, down: arguments.count > 1 && arguments[1].string == "down")
        case "gift-start": return try startGift(arguments)
        case "gift-stop":
            guard let id = arguments.first.flatMap({ $0.integer ?? $0.string.flatMap { Int($0) } }), player.overlays.ids.contains(id) else {
                throw .invalidParameter
            }
            player.overlays.stop(id)
        default: throw .invalidParameter
        }
        return .null
    }

    // MARK: Inside

    private func startGift(_ arguments: [JSONValue]) throws(MPVError) -> JSONValue {
        guard let makeGift, let text = arguments.first?.string, let request = try? OverlayRequest(parsing: text) else { throw .invalidParameter }
        do {
            let animation = try makeGift(request)
            return .integer(try player.overlays.start(animation, placement: request.placement, z: request.z, loops: request.loops, at: request.start))
        } catch {
            throw .commandFailed
        }
    }

    private func load(_ url: String) {
        let player = player
        let paused = player.state == .paused
        loads.withLock { $0 += 1 }
        Task { [loads] in
            defer { loads.withLock { $0 -= 1 } }
            // Failing, the player says so in its events (an error, then end-file).
            guard (try? await player.open(url)) != nil else { return }
            if !paused { player.play() }
        }
    }

    private func seek(_ arguments: [JSONValue]) throws(MPVError) {
        guard let amount = arguments.first?.numeric else { throw .invalidParameter }
        let flags = arguments.dropFirst().compactMap(\.string).flatMap { $0.split(separator: "+").map(String.init) }
        let known: Set = ["relative", "absolute", "absolute-percent", "relative-percent", "exact", "keyframes"]
        guard flags.allSatisfy(known.contains) else { throw .invalidParameter }
        // Only a relative seek needs the position (none is known until a first frame shows).
        func now() throws(MPVError) -> Double {
            guard let now = player.currentTime else { throw .commandFailed }
            return now
        }
        let target: Double
        if flags.contains("absolute") {
            target = amount
        } else if flags.contains("absolute-percent") || flags.contains("relative-percent") {
            guard let duration = player.duration else { throw .commandFailed }
            target = (flags.contains("relative-percent") ? try now() : 0) + duration * amount / 100
        } else {
            target = try now() + amount
        }
        // mpv's hr-seek=default: exact to an absolute place, to a keyframe for a step.
        let exact = flags.contains("exact") || (!flags.contains("keyframes") && (flags.contains("absolute") || flags.contains("absolute-percent")))
        guard target.isFinite else { throw .invalidParameter }
        player.seek(to: max(target, 0), mode: exact ? .exact : .keyframe)
    }

    private func selectAudio(_ value: JSONValue) throws(MPVError) {
        let audio = player.tracks.filter { $0.type == .audio }
        guard case .integer(let number) = value, let track = audio.first(where: { $0.number == number }) else {
            // "no" and "auto" are choices made at opening (--aid); playing on, only a track switches.
            throw .propertyError
        }
        let player = player
        Task { try? await player.selectAudioTrack(track.streamIndex) }
    }

    private func selectSubtitles(_ value: JSONValue) throws(MPVError) {
        do {
            switch value {
            case .integer(let number): try player.selectSubtitleTrack(number)
            case .string("no"): try player.selectSubtitleTrack(nil)
            default: throw MPVError.propertyError
            }
        } catch {
            throw .propertyError
        }
    }

    /// The next track of the type (or the one before), then none, then the first again.
    private func cycleTrack(_ name: String, down: Bool) throws(MPVError) {
        let type: MediaType = name == "aid" ? .audio : .subtitle
        let numbers = player.tracks.filter { $0.type == type }.map(\.number)
        guard !numbers.isEmpty else { throw .propertyUnavailable }
        let current = (name == "aid" ? player.currentAudioTrack : player.currentSubtitleTrack)?.number
        let cycle: [Int?] = (name == "sid" ? [nil] : []) + numbers.map { Optional($0) }
        let position = cycle.firstIndex(of: current) ?? 0
        let next = cycle[(position + (down ? cycle.count - 1 : 1)) % cycle.count]
        try set(name, to: next.map(JSONValue.integer) ?? .string("no"))
    }

    private func videoTrack(_ info: MediaInfo) -> Track? {
        guard let stream = info.preferredStream(of: .video) else { return nil }
        return player.tracks.first { $0.type == .video && $0.streamIndex == stream.index }
    }

    private func trackList(_ info: MediaInfo) -> [JSONValue] {
        let (audio, subtitles, video) = (player.currentAudioTrack, player.currentSubtitleTrack, videoTrack(info))
        return player.tracks.map { track in
            let type = switch track.type {
            case .audio: "audio"
            case .subtitle: "sub"
            default: "video"
            }
            let selected = [audio, subtitles, video].contains { $0 == track }
            var fields: [String: JSONValue] = [
                "id": .integer(track.number), "type": .string(type), "codec": .string(track.codec), "selected": .bool(selected),
                "default": .bool(track.isDefault), "forced": .bool(track.isForced), "external": .bool(track.file != nil),
                "ff-index": .integer(track.streamIndex),
            ]
            if let language = track.language { fields["lang"] = .string(language) }
            if let title = track.title { fields["title"] = .string(title) }
            if let filename = track.file { fields["external-filename"] = .string(filename) }
            return .object(fields)
        }
    }

    /// `${name}` replaced by the property's value as text, as mpv's show-text expands it.
    private func expand(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            result += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close])
            if let value = value(of: name) { result += (kind(of: name) ?? .node).text(of: value) } else { result += "(unavailable)" }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private static func filename(of url: String) -> String {
        url.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? url
    }
}
