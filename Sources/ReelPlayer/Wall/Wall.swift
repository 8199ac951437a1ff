import Foundation
import ReelCore
import ReelFFmpeg

/// Many live cameras in one picture, as NVR viewers show them: each camera a tile with a
/// player of its own (its own session, live mode and reconnects), the grid playing the
/// cameras' sub-streams; the chosen tile is heard, and one that fills the window plays its
/// camera's main stream, switched without a black frame (``WallState``).
///
/// The wall's picture is made on a thread of its own whenever a tile has a new picture (at
/// most ``WallConfiguration/framesPerSecond`` a second) and goes to its output (a window)
/// and to ``frameTap``. Each stream's pictures are scaled to their tile on their player's
/// display thread, so tiles scale in parallel and the wall only copies them into place.
public final class Wall: @unchecked Sendable {
    /// The cameras, in tile order.
    public let cameras: [WallCamera]
    /// How the wall shows them.
    public let configuration: WallConfiguration
    /// The grid.
    public let layout: WallLayout
    /// Every wall picture made (4:2:0, limited range, in the matrix of the first camera
    /// shown: cameras of other matrices are shown with its colours), for other consumers.
    public let frameTap: FrameTap
    /// Tiles' player events, first pictures, selection, quit.
    public let events: AsyncStream<WallEvent>

    struct StreamKey: Hashable {
        var camera: Int
        var stream: WallState.Stream
    }

    /// One stream playing on the wall.
    final class PlayingStream: @unchecked Sendable {
        let player: Player
        let output: WallStreamOutput
        /// Whether it is heard, and the sound card its session plays into (a new one each session).
        let sound: LockedValue<(heard: Bool, device: GatedAudioOutput?)>
        private let tasks = LockedValue<(running: [Task<Void, Never>], ended: Bool)>(([], false))

        init(player: Player, output: WallStreamOutput, sound: LockedValue<(heard: Bool, device: GatedAudioOutput?)>) {
            self.player = player
            self.output = output
            self.sound = sound
        }

        /// Runs `started` as this stream's work, unless it has ended already.
        func start(_ started: [Task<Void, Never>]) {
            let cancelled = tasks.withLock { tasks -> Bool in
                if !tasks.ended { tasks.running = started }
                return tasks.ended
            }
            if cancelled { started.forEach { $0.cancel() } }
        }

        /// Cancels its work and stops its player.
        func end() {
            let running = tasks.withLock { tasks -> [Task<Void, Never>] in
                tasks.ended = true
                return tasks.running
            }
            running.forEach { $0.cancel() }
            player.stop()
        }
    }

    let continuation: AsyncStream<WallEvent>.Continuation
    let makeOutput: @Sendable () -> (any WallOutput)?
    let makeAudioOutput: @Sendable () -> (any AudioOutput)?
    let lock = ConditionLock()
    var state: WallState
    var streams: [StreamKey: PlayingStream] = [:]
    var labels: [WallTileLabel]
    /// Each tile's line as last made, while its label holds the same facts.
    var labelTexts: [Int: (label: WallTileLabel, text: String)] = [:]
    /// Streams whose first picture came and is not yet handled.
    var firstPictures: [StreamKey] = []
    var commands: [WallState.Command] = []
    /// A tile has a picture not drawn yet, or what is drawn changed (set through
    /// ``markDirty()``, except by the wall's own thread).
    var dirty = true
    var started = false
    var stopping = false
    /// Wall pictures made.
    var painted = 0
    /// The tiles' statistics when the wall stopped.
    var finalStatistics: [PlayerStatistics]?
    let finished = DispatchSemaphore(value: 0)
    /// The wall picture's size: even.
    let width: Int
    let height: Int

    /// A wall of `cameras`. `output` makes where the wall is shown (on the wall's thread);
    /// `audioOutput` makes a sound card for each stream played (only the chosen tile's is heard).
    public init(cameras: [WallCamera], configuration: WallConfiguration = WallConfiguration(),
                frameTap: FrameTap = .withLibswscaleFallback(),
                output: @escaping @Sendable () -> (any WallOutput)?,
                audioOutput: @escaping @Sendable () -> (any AudioOutput)?) {
        self.cameras = cameras
        self.configuration = configuration
        layout = configuration.layout ?? .automatic(cameras: cameras.count)
        self.frameTap = frameTap
        makeOutput = output
        makeAudioOutput = audioOutput
        width = max(configuration.width & ~1, 2)
        height = max(configuration.height & ~1, 2)
        state = WallState(hasSubStream: cameras.map { $0.sub != nil })
        labels = cameras.map { WallTileLabel(name: $0.name) }
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    deinit { continuation.finish() }

    /// Opens every camera's grid stream and starts making the wall's pictures.
    public func start() {
        let effects = lock.withLock { () -> [WallState.Effect]? in
            guard !started, !stopping else { return nil }
            started = true
            return state.start()
        }
        guard let effects else { return }
        let thread = Thread { [self] in run() }
        thread.name = "reel.wall"
        thread.start()
        perform(effects)
    }

    /// Asks for `command` (as the window's keys and clicks do).
    public func apply(_ command: WallState.Command) {
        lock.withLock {
            commands.append(command)
            lock.broadcast()
        }
    }

    /// The chosen tile (the one heard) and the one filling the window.
    public var selection: (chosen: Int?, zoomed: Int?) { lock.withLock { (state.chosen, state.zoomed) } }

    /// Each tile's line, as drawn.
    public var tileLabels: [WallTileLabel] { lock.withLock { labels } }

    /// The player of `stream` of `camera`, while it plays.
    public func player(camera: Int, stream: WallState.Stream) -> Player? {
        lock.withLock { streams[StreamKey(camera: camera, stream: stream)]?.player }
    }

    /// Each camera's player statistics, of the stream its tile shows (empty before it
    /// opens); after ``stop()``, as they were when it stopped.
    public var tileStatistics: [PlayerStatistics] {
        if let kept = lock.withLock({ finalStatistics }) { return kept }
        let players = lock.withLock { state.shown.enumerated().map { streams[StreamKey(camera: $0.offset, stream: $0.element)]?.player } }
        return players.map { $0?.statistics ?? PlayerStatistics() }
    }

    /// Wall pictures made so far.
    public var picturesMade: Int { lock.withLock { painted } }

    /// Stops every player and the wall's thread, and closes its output; returns when done.
    public func stop() {
        let statistics = tileStatistics
        let (wasStarted, playing) = lock.withLock { () -> (Bool, [PlayingStream]) in
            let wasStarted = started
            if finalStatistics == nil { finalStatistics = statistics }
            stopping = true
            lock.broadcast()
            defer { streams.removeAll() }
            return (wasStarted, Array(streams.values))
        }
        for stream in playing { end(stream) }
        if wasStarted {
            // Every caller waits for the thread's end (a signal and --duration may stop together).
            finished.wait()
            finished.signal()
        }
        frameTap.finishAll()
        continuation.finish()
    }

    // MARK: Effects

    func perform(_ effects: [WallState.Effect]) {
        for effect in effects {
            switch effect {
            case .open(let camera, let stream): open(StreamKey(camera: camera, stream: stream))
            case .stop(let camera, let stream):
                let key = StreamKey(camera: camera, stream: stream)
                let stopped = lock.withLock { () -> PlayingStream? in
                    // A first picture of it not handled yet must not complete a later switch.
                    firstPictures.removeAll { $0 == key }
                    return streams.removeValue(forKey: key)
                }
                if let stopped { end(stopped) }
            case .sound(let camera, let stream, let on):
                lock.withLock { streams[StreamKey(camera: camera, stream: stream)] }?.sound.withLock { sound in
                    sound.heard = on
                    sound.device?.isHeard = on
                }
            }
        }
    }

    private func open(_ key: StreamKey) {
        let camera = cameras[key.camera]
        var playerConfiguration = configuration.player
        if playerConfiguration.decoder.threadCount == 0, key.stream == .sub || camera.sub == nil {
            playerConfiguration.decoder.threadCount = WallConfiguration.decoderThreads(tiles: cameras.count,
                                                                                      cores: ProcessInfo.processInfo.activeProcessorCount)
        }
        let output = WallStreamOutput(size: { [weak self] width, height, aspect in
            self?.pictureSize(of: key, width: width, height: height, aspect: aspect)
        }, presented: { [weak self] output, first in
            self?.presented(key, by: output, first: first)
        })
        let heard = lock.withLock { state.chosen == key.camera && state.shown[key.camera] == key.stream }
        let sound = LockedValue<(heard: Bool, device: GatedAudioOutput?)>((heard, nil))
        let makeAudioOutput = makeAudioOutput
        let player = Player(configuration: playerConfiguration, videoOutput: { output }, audioOutput: {
            // A new sound card for each session (a reconnect opens one anew), heard as the tile is.
            guard let device = makeAudioOutput() else { return nil }
            let gated = GatedAudioOutput(device: device)
            sound.withLock { sound in
                gated.isHeard = sound.heard
                sound.device = gated
            }
            return gated
        })
        let playing = PlayingStream(player: player, output: output, sound: sound)
        let url = key.stream == .main ? camera.mainURL : camera.gridURL
        // Kept first, so that a stop from now on finds it; none once the wall is stopping.
        let kept = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            streams[key] = playing
            labels[key.camera].problem = nil
            return true
        }
        guard kept else { return }
        playing.start([
            Task { [weak self] in
                for await event in player.events {
                    guard let self else { return }
                    // The tile's line first: whoever hears the event finds it said there.
                    self.note(event, of: key)
                    self.continuation.yield(.player(camera: key.camera, stream: key.stream, event))
                }
            },
            Task { [weak self] in await self?.keepOpening(playing, url: url, key: key) },
        ])
    }

    /// Opens `url` and plays it; a camera that does not answer is tried again every few
    /// seconds (as a live input that drops is), one that refuses the credentials is not.
    private func keepOpening(_ playing: PlayingStream, url: String, key: StreamKey) async {
        var schedule = ReconnectSchedule(limit: .infinity)
        let began = monotonicSeconds()
        while !Task.isCancelled {
            do {
                try await playing.player.open(url)
                playing.player.play()
                return
            } catch {
                guard !Task.isCancelled else { return }
                let failure = PlayerError(error)
                lock.withLock {
                    labels[key.camera].problem = failure.description
                    markDirty()
                }
                continuation.yield(.openFailed(camera: key.camera, stream: key.stream, failure))
                if let input = ((error as? PlayerError)?.underlying ?? error) as? InputError, !input.isWorthRetrying { return }
                guard let wait = schedule.nextWait(elapsed: monotonicSeconds() - began) else { return }
                try? await Task.sleep(for: .seconds(wait))
            }
        }
    }

    private func end(_ playing: PlayingStream) { playing.end() }

    /// Keeps the tile's line up to date with its player.
    private func note(_ event: PlayerEvent, of key: StreamKey) {
        lock.withLock {
            guard state.shown[key.camera] == key.stream else { return }
            switch event {
            case .stateChanged(let playerState):
                labels[key.camera].state = playerState
                if playerState == .playing { labels[key.camera].problem = nil }
            case .reconnecting(let attempt, _): labels[key.camera].problem = "reconnecting (\(attempt))"
            case .reconnected: labels[key.camera].problem = nil
            case .error(let error): labels[key.camera].problem = error.description
            default: return
            }
            markDirty()
        }
    }

    /// Where a picture of `key` goes now, when its tile shows it: its size there; nil when
    /// it is not on screen (its frame is kept, scaled when it shows).
    private func pictureSize(of key: StreamKey, width: Int, height: Int, aspect: Double) -> (width: Int, height: Int)? {
        lock.withLock {
            let showing = state.shown[key.camera] == key.stream || state.starting[key.camera] == key.stream
            guard showing, let index = state.visible.firstIndex(of: key.camera) else { return nil }
            let tile = WallComposer.tile(index, of: state.visible.count, layout: layout, width: self.width, height: self.height)
            let at = WallComposer.picture(width: width, height: height, aspect: aspect, in: tile)
            return (at.width, at.height)
        }
    }

    /// Something to draw changed: the wall's thread, which may wait a quarter of a second
    /// without a window, is woken to paint it in its next slot. Call with the lock held.
    func markDirty() {
        dirty = true
        lock.broadcast()
    }

    private func presented(_ key: StreamKey, by output: WallStreamOutput, first: Bool) {
        let current = lock.withLock { () -> Bool in
            // A stream stopped (or replaced by a new start of it) has nothing more to say.
            guard streams[key]?.output === output else { return false }
            if first { firstPictures.append(key) }
            // Already dirty, the wall's thread was woken and waits for the next picture's slot.
            if first || !dirty { markDirty() }
            return true
        }
        if first && current { continuation.yield(.firstPicture(camera: key.camera, stream: key.stream)) }
    }
}
