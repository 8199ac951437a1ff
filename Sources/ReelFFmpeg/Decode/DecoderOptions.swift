/// How to decode a stream.
public struct DecoderOptions: Sendable {
    /// Decoding threads; 0 lets FFmpeg choose one per core (as `ffmpeg -threads auto`).
    public var threadCount: Int = 0
    /// Decode on a GPU, falling back to software; software only by default.
    public var hardware: HardwareDecoding = .none
    /// Each frame out as soon as its packet is in (live inputs): threads split a frame's
    /// slices instead of decoding several frames at once, since frame threading holds
    /// back one frame per thread. Reordering (B-frames) is kept, unlike FFmpeg's
    /// `-flags low_delay`, which would show such a stream out of order.
    public var lowDelay = false

    /// Options; FFmpeg's thread count, software decoding, unless told.
    public init(threadCount: Int = 0, hardware: HardwareDecoding = .none, lowDelay: Bool = false) {
        self.threadCount = threadCount
        self.hardware = hardware
        self.lowDelay = lowDelay
    }
}

/// Whether to decode on a GPU. Anything but `.none` falls back to software, with a
/// warning in the log, when no such device can be opened or the codec has no support.
public enum HardwareDecoding: Sendable, Equatable {
    /// Software decoding only.
    case none
    /// The first of VAAPI, VDPAU, CUDA, QSV, Vulkan and DRM that opens.
    case automatic
    /// One device type by FFmpeg's name (`vaapi`, `cuda`…).
    case device(String)
}
