import Foundation
import ReelCore
import ReelDBus
import ReelFFmpeg

/// A ``Player`` on the session D-Bus as an MPRIS media player
/// (`org.mpris.MediaPlayer2.reel.instance<pid>`), so that desktop media keys, panels and
/// `playerctl` see and drive it: play, pause, stop, seek, set the position, the volume and
/// the speed, the next and previous playlist items, and what is playing (`Metadata`).
///
/// The owner hands the player's events to ``forward(_:)`` and calls ``close()`` at the end.
public final class MPRISService: DBusObjectHandler, @unchecked Sendable {
    private let player: Player
    private let quit: @Sendable () -> Void
    private var server: DBusObjectServer?
    private let last = LockedValue(MPRISState())
    private let filesStarted = LockedValue(0)
    private let loads = LockedValue(0)

    /// Exports `player`; throws when there is no session bus.
    /// - Parameter onQuit: called for `Quit` and `Stop`; the owner ends playback.
    public init(player: Player, onQuit: @escaping @Sendable () -> Void) throws(DBusError) {
        self.player = player
        quit = onQuit
        server = try DBusObjectServer(busName: "\(MPRISState.busName).instance\(getpid())", objectPath: MPRISState.objectPath,
                                      introspection: MPRISState.introspection, handler: self)
    }

    /// Tells D-Bus what `event` changed: `PropertiesChanged` for the properties that
    /// differ now, `Seeked` when a seek lands.
    public func forward(_ event: PlayerEvent) {
        if case .stateChanged(.opening) = event { filesStarted.withLock { $0 += 1 } }
        let now = state()
        let changes = last.withLock { last in
            defer { last = now }
            return now.changes(since: last)
        }
        server?.propertiesChanged(interface: MPRISState.playerInterface, changes)
        if case .seekCompleted(let position) = event {
            server?.signal(interface: MPRISState.playerInterface, name: "Seeked", [.int64(Self.microseconds(position))])
        }
    }

    /// Whether an `OpenUri` is opening its input (the player passes through `idle` on the way).
    public var isLoading: Bool { loads.withLock { $0 > 0 } }

    /// Leaves the bus.
    public func close() {
        server?.close()
    }

    // MARK: DBusObjectHandler

    public func call(interface: String, method: String, arguments: [DBusValue]) -> Bool {
        guard let call = MPRISCall(interface: interface, method: method, arguments: arguments) else { return false }
        let player = player
        switch call {
        case .play: player.play()
        case .pause: player.pause()
        case .playPause: player.state == .playing || player.state == .buffering ? player.pause() : player.play()
        case .stop, .quit: quit()
        case .raise: break
        case .next, .previous:
            let offset = call == .next ? 1 : -1
            Task { _ = try? await player.movePlaylist(by: offset) }
        case .seek(let seconds):
            guard let now = player.currentTime else { break }
            // A step from the keys: to a keyframe, as mpv steps.
            player.seek(to: max(now + seconds, 0), mode: .keyframe)
        case .setPosition(let track, let seconds):
            // The spec: a position for another track than the current one is ignored.
            guard track == last.withLock({ $0.trackID }), seconds >= 0 else { break }
            player.seek(to: seconds, mode: .exact)
        case .openURI(let uri):
            loads.withLock { $0 += 1 }
            Task { [loads] in
                defer { loads.withLock { $0 -= 1 } }
                guard (try? await player.open(uri)) != nil else { return }
                player.play()
            }
        }
        return true
    }

    public func property(interface: String, name: String) -> DBusValue? {
        switch interface {
        case "org.mpris.MediaPlayer2": return MPRISState.rootProperties[name]
        case MPRISState.playerInterface:
            if name == "Position" { return .int64(Self.microseconds(player.currentTime ?? 0)) }
            return state().properties[name]
        default: return nil
        }
    }

    public func setProperty(interface: String, name: String, value: DBusValue) -> Bool {
        guard interface == MPRISState.playerInterface, case .double(let number) = value, number.isFinite else { return false }
        switch name {
        case "Rate": player.rate = number
        case "Volume": player.volume = max(number, 0)
        default: return false
        }
        forward(.time(position: player.currentTime ?? 0))
        return true
    }

    // MARK: Inside

    private func state() -> MPRISState {
        var state = MPRISState()
        state.playbackStatus = switch player.state {
        case .playing, .buffering, .reconnecting: "Playing"
        case .paused, .ready, .ended: "Paused"
        case .idle, .opening, .failed: "Stopped"
        }
        state.rate = player.rate
        state.volume = player.volume
        state.trackNumber = filesStarted.withLock { $0 }
        if let info = player.mediaInfo {
            state.url = info.format.url
            state.title = info.format.tags["title"]
            let live = LiveInputs.isLive(url: info.format.url)
            state.duration = live ? nil : player.duration
            state.canSeek = !live && player.duration != nil
        }
        if let playlist = player.playlist {
            state.canGoNext = playlist.index + 1 < playlist.items.count
            state.canGoPrevious = playlist.index > 0
        }
        return state
    }

    private static func microseconds(_ seconds: Double) -> Int64 {
        seconds.isFinite ? Int64((seconds * 1e6).rounded()) : 0
    }
}
