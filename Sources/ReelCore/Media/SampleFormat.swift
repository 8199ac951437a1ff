/// The layout of one audio sample (FFmpeg's `AVSampleFormat`, by its name).
public enum SampleFormat: String, Sendable, Codable, CaseIterable {
    /// Unsigned 8-bit, interleaved.
    case u8
    /// Signed 16-bit, interleaved.
    case s16
    /// Signed 32-bit, interleaved.
    case s32
    /// 32-bit float, interleaved.
    case flt
    /// 64-bit float, interleaved.
    case dbl
    /// Signed 64-bit, interleaved.
    case s64
    /// Unsigned 8-bit, a plane per channel.
    case u8p
    /// Signed 16-bit, a plane per channel.
    case s16p
    /// Signed 32-bit, a plane per channel.
    case s32p
    /// 32-bit float, a plane per channel (what most decoders give).
    case fltp
    /// 64-bit float, a plane per channel.
    case dblp
    /// Signed 64-bit, a plane per channel.
    case s64p

    /// Whether each channel has a plane of its own.
    public var isPlanar: Bool { rawValue.hasSuffix("p") }

    /// The same sample type with channels interleaved in one plane.
    public var packed: SampleFormat { isPlanar ? SampleFormat(rawValue: String(rawValue.dropLast()))! : self }

    /// Bytes of one sample of one channel.
    public var bytesPerSample: Int {
        switch packed {
        case .u8: 1
        case .s16: 2
        case .s32, .flt: 4
        default: 8
        }
    }

    /// The name of FFmpeg's PCM codec that stores this sample type little-endian and
    /// interleaved, as `-f framemd5` reports it (`pcm_f32le` for `fltp`).
    public var pcmCodecName: String {
        switch packed {
        case .u8: "pcm_u8"
        case .s16: "pcm_s16le"
        case .s32: "pcm_s32le"
        case .flt: "pcm_f32le"
        case .dbl: "pcm_f64le"
        default: "pcm_s64le"
        }
    }
}
