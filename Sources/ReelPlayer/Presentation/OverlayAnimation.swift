import ReelCore

/// An animation drawn over a player's picture (``Player/overlays``), such as a VAP gift
/// (ReelVAP's `VAPOverlayAnimation`): its frames as premultiplied RGBA pictures at the size
/// they are drawn, made ahead on a thread of its own so that the display never waits for
/// them. Its sound, when it has one, is mixed into the player's on the same time.
public protocol OverlayAnimation: AnyObject, Sendable {
    /// Its natural size, whose shape it keeps when placed.
    var width: Int { get }
    /// Its natural height.
    var height: Int { get }
    /// Its frames a second.
    var framesPerSecond: Double { get }
    /// Its frames in one loop.
    var frameCount: Int { get }
    /// Frame `index` at `width` × `height` (premultiplied RGBA), if made already; nil while
    /// it is not (the frame shown before stays). `waiting` (untimed playback, where every
    /// picture must carry its frame) waits for it to be made, a moment at most.
    func frame(_ index: Int, width: Int, height: Int, waiting: Bool) -> PixelBuffer?
    /// The frames from `index` on, at `width` × `height`, are the ones wanted next.
    func prefetch(from index: Int, width: Int, height: Int)
    /// No more frames are wanted: its thread ends.
    func close()
    /// Its sound in `format` (a sound card's), or nil when it has none. Asked for when it
    /// starts and when the player opens a sound card of another format, never on the sound
    /// card's thread: decoding it there would starve the device.
    func sound(in format: AudioDeviceFormat) -> OverlaySound?
}

extension OverlayAnimation {
    /// No sound.
    public func sound(in format: AudioDeviceFormat) -> OverlaySound? { nil }
}
