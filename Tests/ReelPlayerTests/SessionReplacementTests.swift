import Foundation
@testable import ReelPlayer
import ReelCore
import Testing

/// What replaces a player's session: a reconnect with back-off, an engine fallback, a
/// playlist's next item. The player's threads run; the clock moves only when the test
/// moves it, so every wait is checked to the microsecond.
@Suite(.serialized) struct SessionReplacementTests {
    private static func live(reconnectFor: Double = 30) -> Player.Configuration {
        var configuration = Player.Configuration()
        configuration.live = .on
        configuration.reconnectFor = reconnectFor
        return configuration
    }

    private static func camera(_ clock: ManualPlaybackClock) -> ScriptedEngine {
        let engine = ScriptedEngine(clock: clock, duration: 600, audio: false)
        engine.capabilities.reopensWhenLost = true
        return engine
    }

    private static func isReconnecting(_ attempt: Int) -> (PlayerEvent) -> Bool {
        { if case .reconnecting(let number, _) = $0 { number == attempt } else { false } }
    }

    /// Lost, a live input is opened again 0.25 s later, then after twice the wait each
    /// time up to 4 s, and given up once the next attempt would start past `reconnectFor`.
    @Test(.timeLimit(.minutes(1))) func aLostCameraIsTriedWithBackOffAndGivenUpAtTheLimit() async throws {
        let harness = PlayerHarness(configuration: Self.live()) { n, url, clock, _ in
            if n == 0 { return Self.camera(clock) }
            throw InputError(.connectionRefused, operation: .open, url: url)
        }
        let url = "rtsp://camera/stream"
        try await harness.player.open(url)
        harness.player.play()
        let lostAt = harness.clock.now
        harness.madeEngines[0].fail(InputError(.other, operation: .read, url: url))
        var due = lostAt
        let waits = [0.25, 0.5, 1, 2, 4, 4, 4, 4, 4, 4]
        for (index, wait) in waits.enumerated() {
            #expect(await harness.events.wait(for: Self.isReconnecting(index + 1)))
            due += wait
            let deadline = await harness.nextDeadline()
            #expect(deadline.map { abs($0 - due) < 1e-9 } == true, "attempt \(index + 1) due at \(due - lostAt), waits until \((deadline ?? .nan) - lostAt)")
            harness.clock.advance(to: due)
            #expect(await harness.wait { harness.openings.count == index + 2 })
        }
        #expect(harness.openings.dropFirst().map { $0.at - lostAt } == waits.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) })
        let gaveUp = await harness.events.wait { event in
            guard case .error(let error) = event, let reconnect = error.underlying as? ReconnectError else { return false }
            return reconnect.attempts == 10 && abs(reconnect.seconds - 27.75) < 1e-9
        }
        #expect(gaveUp, "\(harness.events.all)")
        #expect(await harness.wait { harness.player.state == .failed })
        #expect(harness.openings.count == 11, "no attempt after giving up")
        harness.player.stop()
    }

    /// The camera answers at the third attempt: it plays on, the reconnect took exactly
    /// the three waits, and its first picture is timed from that attempt and from the loss,
    /// announced after the reconnect whichever thread noted it first.
    @Test(.timeLimit(.minutes(1))) func aCameraThatComesBackPlaysOn() async throws {
        let harness = PlayerHarness(configuration: Self.live()) { n, url, clock, _ in
            if n == 0 || n == 3 { return Self.camera(clock) }
            throw InputError(.connectionRefused, operation: .open, url: url)
        }
        let url = "rtsp://camera/stream"
        try await harness.player.open(url)
        harness.player.play()
        harness.madeEngines[0].fail(InputError(.other, operation: .read, url: url))
        for attempt in 1...3 {
            #expect(await harness.events.wait(for: Self.isReconnecting(attempt)))
            let deadline = try #require(await harness.nextDeadline())
            harness.clock.advance(to: deadline)
        }
        let back = await harness.events.wait { if case .reconnected(let attempts, let seconds) = $0 { attempts == 3 && abs(seconds - 1.75) < 1e-9 } else { false } }
        #expect(back, "\(harness.events.all)")
        #expect(await harness.wait { harness.player.state == .playing })
        #expect(harness.madeEngines.count == 2 && harness.madeEngines[0].stopped)
        let picture = await harness.events.wait { event in
            if case .firstPictureAfterReconnect(let seconds, let outage) = event { seconds == 0 && abs(outage - 1.75) < 1e-9 } else { false }
        }
        #expect(picture, "\(harness.events.all)")
        let order = harness.events.all.compactMap { event -> String? in
            switch event {
            case .reconnected: "reconnected"
            case .firstPictureAfterReconnect: "picture"
            default: nil
            }
        }
        #expect(order == ["reconnected", "picture"])
        let statistics = harness.player.statistics
        #expect(statistics.reconnects == 1 && statistics.firstPictureAfterReconnect == 0, "\(statistics)")
        #expect(statistics.reconnectOutage.map { abs($0 - 1.75) < 1e-9 } == true)
        harness.player.stop()
        #expect(harness.player.statistics.reconnects == 1, "kept after the stop")
    }

    /// A live input whose timestamps jumped (its sender restarted) is opened again at its
    /// newest segment (FFmpeg's HLS `live_start_index`), where the new stream is; one lost
    /// otherwise is opened as it was first.
    @Test(.timeLimit(.minutes(1))) func aTimestampJumpIsOpenedAgainAtTheNewestSegment() async throws {
        let starts = LockedValue<[String?]>([])
        let harness = PlayerHarness(configuration: Self.live()) { _, _, clock, configuration in
            starts.withLock { $0.append(configuration.input.formatOptions["live_start_index"]) }
            return Self.camera(clock)
        }
        let url = "http://server/hls/ladder.m3u8"
        try await harness.player.open(url)
        harness.player.play()
        let reconnects = { harness.events.all.filter(Self.isReconnecting(1)).count }
        for (index, lost) in [InputError.Reason.timestampsJumped(from: 6.8, to: 0.8), .other].enumerated() {
            harness.madeEngines[index].fail(InputError(lost, operation: .read, url: url))
            #expect(await harness.wait { reconnects() == index + 1 })
            harness.clock.advance(to: try #require(await harness.nextDeadline()))
            #expect(await harness.wait { harness.madeEngines.count == index + 2 && harness.player.state == .playing })
        }
        #expect(starts.copy() == [nil, "-1", nil])
        harness.player.stop()
    }

    /// A stop while a reconnect waits ends it at once: no further attempt.
    @Test(.timeLimit(.minutes(1))) func aStopWhileWaitingEndsTheReconnect() async throws {
        let harness = PlayerHarness(configuration: Self.live()) { n, url, clock, _ in
            if n == 0 { return Self.camera(clock) }
            throw InputError(.connectionRefused, operation: .open, url: url)
        }
        try await harness.player.open("rtsp://camera/stream")
        harness.madeEngines[0].fail(InputError(.other, operation: .read, url: "rtsp://camera/stream"))
        #expect(await harness.events.wait(for: Self.isReconnecting(1)))
        #expect(await harness.nextDeadline() != nil)
        harness.player.stop()
        #expect(await harness.wait { harness.clock.sleeperCount == 0 }, "the wait ended with the stop")
        // The reconnect's job on the item queue is over once a job queued after it runs.
        try await harness.player.onItemQueue {}
        harness.clock.advance(by: 60)
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.openings.count == 1)
        #expect(harness.player.state == .idle)
    }

    /// Credentials refused are not tried again: one line, at once.
    @Test(.timeLimit(.minutes(1))) func refusedCredentialsAreNotRetried() async throws {
        let harness = PlayerHarness(configuration: Self.live()) { n, url, clock, _ in
            if n == 0 { return Self.camera(clock) }
            throw InputError(.permissionDenied, operation: .open, url: url)
        }
        try await harness.player.open("rtsp://camera/stream")
        harness.madeEngines[0].fail(InputError(.other, operation: .read, url: "rtsp://camera/stream"))
        #expect(await harness.events.wait(for: Self.isReconnecting(1)))
        let deadline = try #require(await harness.nextDeadline())
        harness.clock.advance(to: deadline)
        let failed = await harness.events.wait { event in
            if case .error(let error) = event, let reconnect = error.underlying as? ReconnectError { reconnect.attempts == 1 } else { false }
        }
        #expect(failed)
        #expect(harness.openings.count == 2)
    }

    /// A decoding failure mid-file moves the input to the other engine at the position on
    /// screen, once, and playback goes on.
    @Test(.timeLimit(.minutes(1))) func aDecodingFailureFallsBackToTheOtherEngineWhereItWas() async throws {
        let harness = PlayerHarness { n, _, clock, configuration in
            let kind: PlaybackEngineKind = n == 0 ? .ffmpeg : .gstreamer
            return ScriptedEngine(clock: clock, kind: kind, duration: 10, audio: false)
        }
        try await harness.player.open("clip.mp4")
        harness.player.play()
        #expect(await harness.events.wait { if case .firstFrame = $0 { true } else { false } })
        #expect(await harness.run(for: 0.5))
        // The display asleep until its next picture: the position holds until the clock moves.
        let now = harness.clock.now
        #expect(await harness.wait { harness.clock.nextDeadline(after: now) != nil })
        #expect((harness.video?.shown.count ?? 0) >= 10, "shown \(harness.video?.shown.map(\.pts) ?? [])")
        let position = try #require(harness.player.currentTime)
        harness.madeEngines[0].fail(DecodeError(.invalidData))
        let fellBack = await harness.events.wait { if case .engineFallback(.ffmpeg, .gstreamer, _) = $0 { true } else { false } }
        #expect(fellBack, "\(harness.events.all)")
        #expect(await harness.wait { harness.madeEngines.count == 2 && !harness.madeEngines[1].seeks.isEmpty })
        #expect(harness.openings.last?.engine.isOnly(.gstreamer) == true)
        let seek = harness.madeEngines[1].seeks.first
        #expect(seek.map { abs($0.target - position) < 1e-9 && $0.mode == .exact } == true, "opened at \(String(describing: seek)), was at \(position)")
        #expect(await harness.wait { harness.player.state == .playing })
        harness.player.stop()
    }
}

extension EngineSelection {
    func isOnly(_ kind: PlaybackEngineKind) -> Bool {
        switch (self, kind) {
        case (.ffmpeg, .ffmpeg), (.gstreamer, .gstreamer): true
        default: false
        }
    }
}
