import Foundation
@testable import ReelPlayer
import ReelCore
import ReelFFmpeg
import Testing

/// mpv's JSON IPC over a whole player on scripted engines: properties and commands reach
/// the player, its events come out as mpv's, and the socket server carries both.
@Suite struct MPVControlTests {
    private static func harness() -> PlayerHarness {
        PlayerHarness { _, _, clock, _ in ScriptedEngine(clock: clock, duration: 4, audio: false) }
    }

    /// The `data` of the reply to `command` (a JSON array), or its error.
    private static func ask(_ session: MPVIPCSession, _ command: String) -> Result<JSONValue, MPVError> {
        let reply = session.handle(line: #"{"command": \#(command), "request_id": 1}"#).first.flatMap(JSONValue.init(parsing:))
        guard case .object(let fields)? = reply else { return .failure(.commandFailed) }
        guard fields["error"] == "success" else { return .failure(MPVError(rawValue: fields["error"]?.string ?? "") ?? .commandFailed) }
        return .success(fields["data"] ?? .null)
    }

    @Test(.timeLimit(.minutes(1))) func propertiesAndCommandsReachThePlayer() async throws {
        let harness = Self.harness()
        let quits = LockedValue<[Int]>([])
        let target = PlayerMPVTarget(player: harness.player) { code, _ in quits.withLock { $0.append(code) } }
        let session = MPVIPCSession(target: target, clientName: "ipc-0") { 0 }
        #expect(Self.ask(session, #"["get_property", "idle-active"]"#) == .success(true))
        #expect(Self.ask(session, #"["get_property", "duration"]"#) == .failure(.propertyUnavailable), "nothing loaded")

        try await harness.player.open(try #require(Playlist(["a.mp4"])))
        #expect(Self.ask(session, #"["get_property", "duration"]"#) == .success(4))
        #expect(Self.ask(session, #"["get_property", "pause"]"#) == .success(true), "opened, not started")
        #expect(Self.ask(session, #"["get_property", "path"]"#) == .success("scripted://clip"))
        #expect(Self.ask(session, #"["get_property", "width"]"#) == .success(64))
        #expect(Self.ask(session, #"["get_property", "container-fps"]"#) == .success(25))

        #expect(Self.ask(session, #"["set_property", "pause", false]"#) == .success(.null))
        #expect(harness.player.state == .playing)
        #expect(Self.ask(session, #"["set_property", "volume", 50]"#) == .success(.null))
        #expect(harness.player.volume == 0.5)
        #expect(Self.ask(session, #"["get_property", "volume"]"#) == .success(50))
        #expect(Self.ask(session, #"["set_property", "speed", 1.5]"#) == .success(.null))
        #expect(harness.player.rate == 1.5)

        // An absolute seek is exact (mpv's hr-seek=default); a relative one goes to a keyframe.
        #expect(Self.ask(session, #"["seek", 2, "absolute"]"#) == .success(.null))
        #expect(await harness.wait { harness.madeEngines.last?.seeks.contains { $0.target == 2 && $0.mode == .exact } == true },
                "\(harness.madeEngines.last?.seeks ?? [])")
        #expect(Self.ask(session, #"["seek", 1, "sideways"]"#) == .failure(.invalidParameter))

        #expect(Self.ask(session, #"["loadfile", "b.mp4", "append"]"#) == .success(.null))
        #expect(harness.player.playlist?.items == ["a.mp4", "b.mp4"])
        #expect(Self.ask(session, #"["get_property", "playlist-count"]"#) == .success(2))
        #expect(Self.ask(session, #"["playlist-prev"]"#) == .failure(.commandFailed), "nothing before the first item")

        #expect(Self.ask(session, #"["quit", 3]"#) == .success(.null))
        #expect(quits.copy() == [3])
        harness.player.stop()
    }

    /// Loaded, before the first picture (here one that arrives a minute later on the test's
    /// clock): mpv answers where playback starts; a socat client that asked at once was told
    /// "property unavailable" by Reel.
    @Test(.timeLimit(.minutes(1))) func thePositionIsWherePlaybackStartsBeforeThePicture() async throws {
        let harness = PlayerHarness { _, _, clock, _ in
            let engine = ScriptedEngine(clock: clock, duration: 4, audio: false)
            engine.arrival = { _, start in start + 60 }
            return engine
        }
        let session = MPVIPCSession(target: PlayerMPVTarget(player: harness.player) { _, _ in }, clientName: "ipc-0") { 0 }
        try await harness.player.open(try #require(Playlist(["a.mp4"])))
        #expect(harness.player.currentTime == nil, "no picture yet")
        #expect(Self.ask(session, #"["get_property", "time-pos"]"#) == .success(0))
        #expect(Self.ask(session, #"["get_property", "percent-pos"]"#) == .success(0))
        #expect(Self.ask(session, #"["get_property", "time-remaining"]"#) == .success(4))
        // Opened at 1 s: there, not at 0.
        try await harness.player.open(try #require(Playlist(["a.mp4"])), startingAt: 1)
        #expect(Self.ask(session, #"["get_property", "time-pos"]"#) == .success(1))
        #expect(Self.ask(session, #"["get_property", "percent-pos"]"#) == .success(25))
        #expect(Self.ask(session, #"["get_property", "time-remaining"]"#) == .success(3))
        harness.player.stop()
    }

    @Test(.timeLimit(.minutes(1))) func aPlayersEventsComeOutAsMpvs() async throws {
        var configuration = Player.Configuration()
        configuration.untimed = true
        let harness = PlayerHarness(configuration: configuration) { _, _, clock, _ in ScriptedEngine(clock: clock, duration: 0.4, audio: false) }
        try await harness.player.open(try #require(Playlist(["a.mp4"])))
        harness.player.seek(to: 0.2, mode: .exact)
        #expect(await harness.events.wait { if case .seekCompleted = $0 { true } else { false } }, "\(harness.events.all)")
        harness.player.play()
        #expect(await harness.events.wait { if case .endOfStream = $0 { true } else { false } }, "\(harness.events.all)")
        harness.player.stop()
        #expect(await harness.events.wait { $0.isIdle })

        var mapper = MPVEventMapper()
        let names = harness.events.all.flatMap { mapper.events(for: $0) }.map { event in
            event.fields["reason"].map { "\(event.name) \($0.string ?? "")" } ?? event.name
        }
        // Each seek the player reports (the one asked for, and any it makes itself) is one of mpv's.
        let seeks = harness.events.count { if case .seekCompleted = $0 { true } else { false } }
        #expect(seeks >= 1)
        let expected = ["start-file", "file-loaded", "playback-restart"] + Array(repeating: ["seek", "playback-restart"], count: seeks).flatMap { $0 } + ["end-file eof"]
        #expect(names == expected, "\(harness.events.all)")
    }

    /// `gift-start` makes the animation its spec names and starts it where and when the
    /// spec says, answering its id; `gift-stop` stops it; both come out as events.
    @Test(.timeLimit(.minutes(1))) func giftsStartAndStopOverIPC() async throws {
        let harness = Self.harness()
        let asked = LockedValue<[OverlayRequest]>([])
        let target = PlayerMPVTarget(player: harness.player, makeGift: { request in
            asked.withLock { $0.append(request) }
            guard request.path == "gift.mp4" else { throw OverlayRequestError.invalid(request.path, reason: "no such file") }
            return SquareAnimation()
        }, quit: { _, _ in })
        let session = MPVIPCSession(target: target, clientName: "ipc-0") { 0 }
        try await harness.player.open(try #require(Playlist(["a.mp4"])))

        let started = Self.ask(session, #"["gift-start", "gift.mp4@1.5,pos=bottom,z=2,loops=0,sTxt1=Anna"]"#)
        let id = try #require(try started.get().integer, "\(started)")
        #expect(harness.player.overlays.ids == [id])
        let expected = try OverlayRequest(parsing: "gift.mp4@1.5,pos=bottom,z=2,loops=0,sTxt1=Anna")
        #expect(asked.copy() == [expected])
        #expect(Self.ask(session, #"["gift-start", "missing.mp4"]"#) == .failure(.commandFailed))
        #expect(Self.ask(session, #"["gift-start", "gift.mp4,scale=3"]"#) == .failure(.invalidParameter), "a spec --overlay refuses")
        #expect(Self.ask(session, #"["gift-stop", \#(id + 100)]"#) == .failure(.invalidParameter), "no such gift")
        #expect(Self.ask(session, #"["gift-stop", \#(id)]"#) == .success(.null))
        #expect(harness.player.overlays.ids.isEmpty)

        var mapper = MPVEventMapper()
        #expect(mapper.events(for: .overlayStarted(id: 7)).map { $0.name } == ["gift-started"])
        #expect(mapper.events(for: .overlayFinished(id: 7)).first?.fields == ["id": .integer(7)])
        let plain = MPVIPCSession(target: PlayerMPVTarget(player: harness.player) { _, _ in }, clientName: "ipc-1") { 0 }
        #expect(Self.ask(plain, #"["gift-start", "gift.mp4"]"#) == .failure(.invalidParameter), "no gifts without an animation maker")
        harness.player.stop()
    }

    @Test(.timeLimit(.minutes(1))) func theServerAnswersOnItsSocketAndSendsEvents() async throws {
        let harness = Self.harness()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-ipc-\(UUID().uuidString.prefix(8))").path
        let server = try MPVIPCServer(path: path, player: harness.player) { _ in }
        defer { server.close() }
        let client = try SocketClient(path: path)
        client.send(#"{"command": ["observe_property", 1, "pause"]}"#)
        client.send(#"{"command": ["get_property", "idle-active"], "request_id": 5}"#)
        #expect(try client.readObjects(3) == [["error": "success", "request_id": 0],
                                              ["event": "property-change", "id": 1, "name": "pause", "data": false],
                                              ["data": true, "error": "success", "request_id": 5]])
        try await harness.player.open(try #require(Playlist(["a.mp4"])))
        server.forward(.stateChanged(.opening))
        #expect(try client.readObjects(2) == [["event": "start-file", "playlist_entry_id": 1], ["event": "property-change", "id": 1, "name": "pause", "data": true]])
        server.close()
        #expect(try client.readObjects(2) == [["event": "end-file", "reason": "stop", "playlist_entry_id": 1], ["event": "shutdown"]])
        #expect(!FileManager.default.fileExists(atPath: path), "the socket's file is removed")
        harness.player.stop()
    }
}

extension PlayerEvent {
    fileprivate var isIdle: Bool { if case .stateChanged(.idle) = self { true } else { false } }
}

/// A Unix-socket client that reads whole lines.
private final class SocketClient {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next `count` lines as JSON; throws when they do not come (10 s) or the server hung up.
    func readObjects(_ count: Int) throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while lines.count < count {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(JSONValue(parsing: String(decoding: pending[..<newline], as: UTF8.self)) ?? .null)
                pending.removeSubrange(...newline)
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { throw POSIXError(.ETIMEDOUT) }
            pending += buffer[..<read]
        }
        return lines
    }
}
