import Foundation
import ReelCore

/// The animations drawn over a player's picture (``Player/overlays``): gifts over a stream,
/// as live-streaming apps show them. Each plays on the player's time (the input's position,
/// so a pause holds it), where its ``OverlayPlacement`` puts it, over those of lower z, its
/// sound mixed into the player's; its start, each new frame drawn and its end are the
/// player's events (``PlayerEvent/overlayStarted(id:)``, ``PlayerEvent/overlayFrame(id:frame:)``,
/// ``PlayerEvent/overlayFinished(id:)``). They are drawn into the picture before subtitles,
/// so the window, the frame tap and screenshots all show them; over a 360° video, onto the
/// view (as subtitles are), which the window and the view's tap show, not onto the sphere.
public final class PlayerOverlays: @unchecked Sendable {
    private struct Playing {
        let animation: any OverlayAnimation
        let placement: OverlayPlacement
        /// The last frame drawn: kept on screen while the next is not made yet.
        var shown: PixelBuffer?
        /// The frame last told as drawn.
        var toldFrame: Int?
        /// Its sound in the sound card's format, if it has one.
        var sound: OverlaySound?
    }

    private let lock = NSLock()
    private var schedule = OverlaySchedule()
    private var playing: [Int: Playing] = [:]
    private var nextID = 1
    private var late = 0
    private var pixelBudget: Double? = PlayerOverlays.defaultBudget
    /// The pictures drawn on, reused from one frame to the next (a few sizes: the picture's,
    /// the parts the gifts cover).
    private let pool = PixelBufferPool(capacity: 4, shapeLimit: 6)
    /// The input's position now, for animations started at once.
    var position: @Sendable () -> Double? = { nil }
    /// The format of the sound card playing now, if any: animations started get their sound in it.
    var soundFormat: @Sendable () -> AudioDeviceFormat? = { nil }
    /// Where starts, frames and ends are told.
    var emit: @Sendable (PlayerEvent) -> Void = { _ in }

    init() {}

    /// The budget by default: 192 million pixels a second, about 18 of Tencent's 736×576
    /// demo gifts at 25 frames a second, or 9 full-height 672×1504 ones at 20.
    public static let defaultBudget: Double = 192_000_000

    /// How many pixels a second (each animation's natural width × height × frames a second)
    /// the animations playing may make in all; nil: no limit. Each makes its frames on a
    /// thread of its own, and beyond what the machine makes in time they would only be late:
    /// ``start(_:placement:z:loops:at:)`` refuses one that would go beyond it.
    public var budget: Double? {
        get { lock.withLock { pixelBudget } }
        set { lock.withLock { pixelBudget = newValue.map { max($0, 0) } } }
    }

    /// Starts `animation` at `time` (seconds into the input; now when nil), placed by
    /// `placement`, drawn over animations of lower `z`, played `loops` times (0: until
    /// stopped). Returns its id; throws, starting nothing, when the ``budget`` has no room
    /// for it.
    @discardableResult
    public func start(_ animation: any OverlayAnimation, placement: OverlayPlacement = OverlayPlacement(), z: Int = 0,
                      loops: Int = 1, at time: Double? = nil) throws(OverlayError) -> Int {
        let start = time ?? position() ?? 0
        // Refused before its sound is decoded for nothing; asked again when admitting, as
        // others may have started meanwhile.
        if let refusal = lock.withLock({ refusal(of: animation) }) { throw refusal }
        let sound = soundFormat().flatMap { animation.sound(in: $0) }
        let admitted = lock.withLock { () -> Result<Int, OverlayError> in
            if let refusal = refusal(of: animation) { return .failure(refusal) }
            let id = nextID
            nextID += 1
            schedule.add(.init(id: id, start: start, framesPerSecond: animation.framesPerSecond, frameCount: animation.frameCount,
                               loops: loops, z: z))
            playing[id] = Playing(animation: animation, placement: placement, sound: sound)
            return .success(id)
        }
        let id = try admitted.get()
        emit(.overlayStarted(id: id))
        return id
    }

    /// Why the budget has no room for `animation`, if it has none. Under the lock.
    private func refusal(of animation: any OverlayAnimation) -> OverlayError? {
        guard let pixelBudget else { return nil }
        let needs = Self.pixelsPerSecond(animation)
        let inUse = playing.values.reduce(0) { $0 + Self.pixelsPerSecond($1.animation) }
        if needs > pixelBudget {
            return .tooLarge(width: animation.width, height: animation.height, framesPerSecond: animation.framesPerSecond, budget: pixelBudget)
        }
        return inUse + needs > pixelBudget ? .budgetSpent(needs: needs, playing: playing.count, inUse: inUse, budget: pixelBudget) : nil
    }

    private static func pixelsPerSecond(_ animation: any OverlayAnimation) -> Double {
        Double(animation.width * animation.height) * animation.framesPerSecond
    }

    /// Stops animation `id`; its end is told as when it finishes.
    public func stop(_ id: Int) {
        let stopped = lock.withLock { () -> (any OverlayAnimation)? in
            schedule.remove(id: id)
            return playing.removeValue(forKey: id)?.animation
        }
        guard let stopped else { return }
        stopped.close()
        emit(.overlayFinished(id: id))
    }

    /// Stops every animation.
    public func stopAll() {
        for id in ids { stop(id) }
    }

    /// The animations playing, in drawing order.
    public var ids: [Int] { lock.withLock { schedule.entries.map(\.id) } }

    /// Adds the sounds of the animations playing to `output`'s first `frames` frames
    /// (interleaved in `format`), the first heard at `position` on the input's time and each
    /// next `step` seconds later. Sound card's thread: it only adds what was decoded before.
    func mixSounds(into output: UnsafeMutableBufferPointer<Float>, frames: Int, format: AudioDeviceFormat, from position: Double, step: Double) {
        // Sound card's thread, many times a second: nothing is allocated while no gift plays.
        let sounding = lock.withLock {
            playing.isEmpty ? [] : schedule.entries.compactMap { entry in playing[entry.id]?.sound.flatMap { $0.format == format ? (entry, $0) : nil } }
        }
        for (entry, sound) in sounding { sound.mix(into: output, frames: frames, from: position, step: step, playing: entry) }
    }

    /// Gives the animations playing their sounds in `format`: a sound card opened for a new
    /// input may not have the format of the one before.
    func prepareSounds(for format: AudioDeviceFormat) {
        let wanting = lock.withLock { playing.filter { $0.value.sound?.format != format }.map { ($0.key, $0.value.animation) } }
        for (id, animation) in wanting {
            guard let sound = animation.sound(in: format) else { continue }
            lock.withLock { playing[id]?.sound = sound }
        }
    }

    /// Frames that were not made in time to be drawn (the one before was drawn again), since
    /// the player was made.
    public var framesLate: Int { lock.withLock { late } }

    /// `frame` with the animations due at `position` drawn over it (a new frame of the same
    /// layout, matrix and range: the parts they cover drawn in BGRA and converted back
    /// exactly, the rest the frame's own pixels, so that taps and encoders get what they
    /// would get without the gift), or nil when none shows (or the frame's layout is one
    /// Reel does not convert itself).
    /// `waiting`: each animation's frame is waited for (untimed playback). `pictureInWindow`:
    /// where the picture lies in the window, for window placements. Display thread.
    func draw(over frame: VideoFrame, at position: Double, waiting: Bool = false, pictureInWindow: PixelRect? = nil) -> VideoFrame? {
        let (due, ended) = lock.withLock { () -> ([(id: Int, frame: Int, playing: Playing)], [(Int, any OverlayAnimation)]) in
            let ended = schedule.removeEnded(at: position).compactMap { entry in playing.removeValue(forKey: entry.id).map { (entry.id, $0.animation) } }
            let due = schedule.frames(at: position).compactMap { item in playing[item.id].map { (item.id, item.frame, $0) } }
            return (due, ended)
        }
        for (id, animation) in ended {
            animation.close()
            emit(.overlayFinished(id: id))
        }
        guard !due.isEmpty, let source = try? PixelBuffer(wrapping: frame) else { return nil }
        var layers: [OverlayComposition.Layer] = []
        for item in due {
            let animation = item.playing.animation
            guard let rect = item.playing.placement.rect(animation: (animation.width, animation.height), picture: (frame.width, frame.height),
                                                         pictureInWindow: pictureInWindow) else { continue }
            animation.prefetch(from: item.frame, width: rect.width, height: rect.height)
            let made = animation.frame(item.frame, width: rect.width, height: rect.height, waiting: waiting)
            let firstDrawn = lock.withLock { () -> Bool in
                guard let made else {
                    late += 1
                    return false
                }
                playing[item.id]?.shown = made
                defer { playing[item.id]?.toldFrame = item.frame }
                return playing[item.id]?.toldFrame != item.frame
            }
            if firstDrawn { emit(.overlayFrame(id: item.id, frame: item.frame)) }
            guard let picture = made ?? item.playing.shown, picture.width == rect.width, picture.height == rect.height else { continue }
            layers.append(.init(picture: picture, x: rect.x, y: rect.y))
        }
        guard !layers.isEmpty, let back = try? OverlayComposition.draw(layers, over: source, pool: pool) else { return nil }
        var drawn = back.videoFrame(pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe)
        drawn.color = frame.color
        drawn.sampleAspectRatio = frame.sampleAspectRatio
        drawn.orientation = frame.orientation
        return drawn
    }
}
