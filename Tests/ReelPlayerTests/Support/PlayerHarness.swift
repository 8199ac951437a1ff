import Foundation
@testable import ReelPlayer
import ReelCore

/// A whole player on a manual clock whose engines a script makes: each open the player
/// asks for is recorded (with the clock's time and the engine asked for) and answered by
/// `open`, which returns an engine or throws. The player's own threads run; the test waits
/// for events, never for time, and moves the clock itself.
final class PlayerHarness: @unchecked Sendable {
    struct Open: Sendable {
        var url: String
        var engine: EngineSelection
        var at: Double
    }

    let clock = ManualPlaybackClock(at: 100)
    let player: Player
    let events: PlayerEvents
    /// The window every session of the player shows on (nil without video).
    let video: RecordingOutput?
    private let opens = LockedValue<[Open]>([])
    private let engines = LockedValue<[ScriptedEngine]>([])

    /// - Parameter open: answers the `n`th open (from 0) of `url`: an engine, or an error.
    init(configuration: Player.Configuration = Player.Configuration(), video: Bool = true, audio: Bool = false,
         open: @escaping @Sendable (_ n: Int, _ url: String, _ clock: ManualPlaybackClock, _ configuration: Player.Configuration) throws -> ScriptedEngine) {
        let clock = clock
        let (opens, engines) = (opens, engines)
        let videoOutput = video ? RecordingOutput(clock: clock) : nil
        self.video = videoOutput
        player = Player(configuration: configuration, frameTap: FrameTap(), videoOutput: { videoOutput },
                        audioOutput: { audio ? PulledAudioOutput() : nil }, clock: clock,
                        openEngine: { url, configuration, _, _, _, _, _ in
                            let n = opens.withLock { list in
                                list.append(Open(url: url, engine: configuration.engine, at: clock.now))
                                return list.count - 1
                            }
                            let engine = try open(n, url, clock, configuration)
                            engine.drivesItself = true
                            engines.withLock { $0.append(engine) }
                            return engine
                        })
        events = PlayerEvents(player)
    }

    /// Every open asked for so far.
    var openings: [Open] { opens.copy() }
    /// The engines made so far, in order.
    var madeEngines: [ScriptedEngine] { engines.copy() }

    /// Waits (in real time, at most `timeout`) until `condition` holds, without holding a
    /// thread of the cooperative pool.
    func wait(timeout: Double = 10, until condition: () -> Bool) async -> Bool {
        let giveUp = monotonicSeconds() + timeout
        while !condition() {
            if monotonicSeconds() > giveUp { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }

    /// Moves the clock on by `seconds` as time would pass for the player's threads: to
    /// each deadline one of them sleeps until, in turn, once it sleeps again (as
    /// `GstTestClock`'s tests wait for the next pending id, then advance).
    func run(for seconds: Double) async -> Bool {
        let end = clock.now + seconds
        while clock.now < end {
            let now = clock.now
            guard await wait(until: { clock.nextDeadline(after: now) != nil }), let next = clock.nextDeadline(after: now) else { return false }
            clock.advance(to: min(next, end))
        }
        return true
    }

    /// Waits until `count` threads sleep on the clock, and returns the earliest deadline.
    func nextDeadline(sleepers count: Int = 1) async -> Double? {
        guard await wait(until: { clock.sleeperCount >= count }) else { return nil }
        return clock.nextDeadline
    }
}

/// A player's events as they come, collected off the cooperative pool.
final class PlayerEvents: @unchecked Sendable {
    private let events = LockedValue<[PlayerEvent]>([])

    init(_ player: Player) {
        let events = events
        Task.detached { for await event in player.events { events.withLock { $0.append(event) } } }
    }

    var all: [PlayerEvent] { events.copy() }
    var states: [PlayerState] { all.compactMap { if case .stateChanged(let state) = $0 { state } else { nil } } }

    func count(_ matches: (PlayerEvent) -> Bool) -> Int { all.filter(matches).count }

    /// Waits (in real time, at most `timeout`) until some event matches.
    @discardableResult
    func wait(timeout: Double = 10, for matches: (PlayerEvent) -> Bool) async -> Bool {
        let giveUp = monotonicSeconds() + timeout
        while !all.contains(where: matches) {
            if monotonicSeconds() > giveUp { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }
}
