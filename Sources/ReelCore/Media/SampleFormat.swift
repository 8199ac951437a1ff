/// The layout of one audio sample (FFmpeg's `AVSampleFormat`, by its name).
public enum SampleFormat: String, Sendable, Codable, CaseIterable {
    case u8, s16, s32, flt, dbl, s64
    case u8p, s16p, s32p, fltp, dblp, s64p

    /// Whether each channel has a plane of its own.
    public var isPlanar: Bool { rawValue.hasSuffix("p") }

    /// The same sample type with channels interleaved in one plane.
    public var packed: SampleFormat { isPlanar ? SampleFormat(rawValue: String(rawValue.dropLast()))! : self }

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
