import Foundation
import ReelCore

/// The animations drawn over a player's picture (``Player/overlays``): gifts over a stream,
/// as live-streaming apps show them. Each plays on the player's time (the input's position,
/// so a pause holds it), where its ``OverlayPlacement`` puts it, over those of lower z; its
/// start and end are the player's events (``PlayerEvent/overlayStarted(id:)``,
/// ``PlayerEvent/overlayFinished(id:)``). They are drawn into the picture before subtitles,
/// so the window, the frame tap and screenshots all show them.
public final class PlayerOverlays: @unchecked Sendable {
    private struct Playing {
        let animation: any OverlayAnimation
        let placement: OverlayPlacement
        /// The last frame drawn: kept on screen while the next is not made yet.
        var shown: PixelBuffer?
    }

    private let lock = NSLock()
    private var schedule = OverlaySchedule()
    private var playing: [Int: Playing] = [:]
    private var nextID = 1
    private var late = 0
    /// The input's position now, for animations started at once.
    var position: @Sendable () -> Double? = { nil }
    /// Where starts and ends are told.
    var emit: @Sendable (PlayerEvent) -> Void = { _ in }

    init() {}

    /// Starts `animation` at `time` (seconds into the input; now when nil), placed by
    /// `placement`, drawn over animations of lower `z`, played `loops` times (0: until
    /// stopped). Returns its id.
    @discardableResult
    public func start(_ animation: any OverlayAnimation, placement: OverlayPlacement = OverlayPlacement(), z: Int = 0,
                      loops: Int = 1, at time: Double? = nil) -> Int {
        let start = time ?? position() ?? 0
        let id = lock.withLock {
            let id = nextID
            nextID += 1
            schedule.add(.init(id: id, start: start, framesPerSecond: animation.framesPerSecond, frameCount: animation.frameCount,
                               loops: loops, z: z))
            playing[id] = Playing(animation: animation, placement: placement)
            return id
        }
        emit(.overlayStarted(id: id))
        return id
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

    /// Frames that were not made in time to be drawn (the one before was drawn again), since
    /// the player was made.
    public var framesLate: Int { lock.withLock { late } }

    /// `frame` with the animations due at `position` drawn over it (a new frame of the same
    /// layout, matrix and range: drawn in BGRA and converted back exactly, so that taps and
    /// encoders get what they would get without the gift), or nil when none shows (or the
    /// frame's layout is one Reel does not convert itself).
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
        guard !due.isEmpty, let source = try? PixelBuffer(wrapping: frame), let base = try? source.converted(to: .bgra) else { return nil }
        for item in due {
            let animation = item.playing.animation
            guard let rect = item.playing.placement.rect(animation: (animation.width, animation.height), picture: (frame.width, frame.height),
                                                         pictureInWindow: pictureInWindow) else { continue }
            animation.prefetch(from: item.frame, width: rect.width, height: rect.height)
            let made = animation.frame(item.frame, width: rect.width, height: rect.height, waiting: waiting)
            lock.withLock {
                if let made { playing[item.id]?.shown = made } else { late += 1 }
            }
            guard let picture = made ?? item.playing.shown, picture.width == rect.width, picture.height == rect.height else { continue }
            PremultipliedBlend.blend(picture, onto: base, x: rect.x, y: rect.y)
        }
        guard let back = try? PixelBuffer(format: source.format, width: source.width, height: source.height, matrix: source.matrix, range: source.range),
              (try? base.convert(into: back)) != nil else { return nil }
        var drawn = back.videoFrame(pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe)
        drawn.color = frame.color
        drawn.sampleAspectRatio = frame.sampleAspectRatio
        drawn.orientation = frame.orientation
        return drawn
    }
}
