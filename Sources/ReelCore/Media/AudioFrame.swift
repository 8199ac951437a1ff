/// A run of decoded audio samples that points into the decoder's own buffers (no copy).
public struct AudioFrame: @unchecked Sendable {
    /// The layout of the samples.
    public var sampleFormat: SampleFormat
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Channels.
    public var channelCount: Int
    /// FFmpeg's description of the layout: `stereo`, `5.1(side)`, `2 channels`…
    public var channelLayout: String
    /// Samples per channel.
    public var sampleCount: Int
    /// One plane per channel for planar formats, else one interleaved plane.
    public var planes: [UnsafeRawPointer]
    /// Presentation timestamp in ticks of ``timeBase``.
    public var pts: Int64?
    /// The unit of ``pts``, in seconds.
    public var timeBase: Rational
    /// Keeps the planes' memory alive.
    public var owner: any StorageOwner

    /// A frame over planes that `owner` keeps alive.
    public init(sampleFormat: SampleFormat, sampleRate: Int, channelCount: Int, channelLayout: String,
                sampleCount: Int, planes: [UnsafeRawPointer], pts: Int64?, timeBase: Rational, owner: any StorageOwner) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.channelLayout = channelLayout
        self.sampleCount = sampleCount
        self.planes = planes
        self.pts = pts
        self.timeBase = timeBase
        self.owner = owner
    }

    /// ``pts`` as a time; `nil` when unknown.
    public var presentationTime: MediaTime? { pts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }
    /// How long the samples last: their count over the rate.
    public var duration: MediaTime { MediaTime(value: Int64(sampleCount), timescale: Int32(clamping: max(sampleRate, 1))) }

    /// Bytes of the samples interleaved (the layout of FFmpeg's `pcm_*` codecs).
    public var interleavedByteCount: Int { sampleCount * channelCount * sampleFormat.bytesPerSample }

    /// Writes the samples interleaved into `destination`, which holds at least
    /// ``interleavedByteCount`` bytes.
    public func copyInterleaved(into destination: UnsafeMutableRawBufferPointer) {
        precondition(destination.count >= interleavedByteCount, "destination too small")
        guard let out = destination.baseAddress else { return }
        if !sampleFormat.isPlanar {
            out.copyMemory(from: planes[0], byteCount: interleavedByteCount)
            return
        }
        let width = sampleFormat.bytesPerSample
        let frameStride = width * channelCount
        for (channel, plane) in planes.prefix(channelCount).enumerated() {
            for sample in 0..<sampleCount {
                (out + sample * frameStride + channel * width).copyMemory(from: plane + sample * width, byteCount: width)
            }
        }
    }
}
