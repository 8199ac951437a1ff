import CFFmpeg
import ReelCore

/// Owns an `AVFrame` that a ``VideoFrame`` or ``AudioFrame`` points into, and gives it
/// back to its pool (or frees it) when the last of them goes.
final class FrameBox: StorageOwner, @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>
    private let pool: FramePool?

    init(_ frame: UnsafeMutablePointer<AVFrame>, pool: FramePool? = nil) {
        self.frame = frame
        self.pool = pool
    }

    deinit {
        if let pool {
            pool.give(frame)
        } else {
            var pointer: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&pointer)
        }
    }
}

/// Reel's limits on what a header may ask it to allocate.
public enum DecodeLimits {
    /// Largest picture side (16K).
    public static let maxDimension = 16_384
    /// Most audio channels accepted.
    public static let maxChannels = 64
}

extension VideoFrame {
    /// Views an `AVFrame`'s planes without copying; `box` keeps them alive.
    init(box: FrameBox, timeBase: Rational) throws {
        let frame = box.frame.pointee
        let format = AVPixelFormat(frame.format)
        guard frame.width > 0, frame.height > 0, frame.width <= DecodeLimits.maxDimension,
              frame.height <= DecodeLimits.maxDimension else { throw DecodeError(.tooLarge, detail: "\(frame.width)x\(frame.height)") }
        // Rows of each plane as rawvideo packs them: what is meaningful, without padding.
        var rowByteCounts = [Int32](repeating: 0, count: 4)
        var packedStrides = [Int](repeating: 0, count: 4)
        var planeByteCounts = [Int](repeating: 0, count: 4)
        guard av_image_fill_linesizes(&rowByteCounts, format, frame.width) >= 0 else {
            throw DecodeError(.other, detail: "unsupported pixel format \(frame.format)")
        }
        for plane in 0..<4 { packedStrides[plane] = Int(rowByteCounts[plane]) }
        guard av_image_fill_plane_sizes(&planeByteCounts, format, frame.height, packedStrides) >= 0 else {
            throw DecodeError(.other, detail: "unsupported pixel format \(frame.format)")
        }
        let data = withUnsafeBytes(of: frame.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: frame.linesize) { Array($0.bindMemory(to: Int32.self)) }
        var planes: [PlaneView] = []
        for plane in 0..<4 where packedStrides[plane] > 0 {
            guard let base = data[plane] else { throw DecodeError(.other, detail: "missing picture plane") }
            planes.append(PlaneView(baseAddress: UnsafeRawPointer(base), bytesPerRow: Int(strides[plane]),
                                    rowByteCount: packedStrides[plane], rowCount: planeByteCounts[plane] / packedStrides[plane]))
        }
        let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
        let bestEffort = frame.best_effort_timestamp
        self.init(width: Int(frame.width), height: Int(frame.height), pixelFormat: PixelFormat(name), planes: planes,
                  color: ColorDescription(frame.colorspace, frame.color_range, frame.color_primaries, frame.color_trc),
                  sampleAspectRatio: Rational(frame.sample_aspect_ratio),
                  pts: bestEffort == FFmpegCode.noPTS ? nil : bestEffort,
                  duration: frame.pkt_duration, timeBase: timeBase,
                  isKeyframe: frame.key_frame != 0, owner: box)
    }
}

extension AudioFrame {
    /// Views an `AVFrame`'s samples without copying; `box` keeps them alive.
    init(box: FrameBox, timeBase: Rational) throws {
        let frame = box.frame.pointee
        guard let name = av_get_sample_fmt_name(AVSampleFormat(frame.format)),
              let format = SampleFormat(rawValue: String(cString: name)) else {
            throw DecodeError(.other, detail: "unsupported sample format \(frame.format)")
        }
        let channels = Int(frame.ch_layout.nb_channels)
        guard channels > 0, channels <= DecodeLimits.maxChannels else { throw DecodeError(.tooLarge, detail: "\(channels) channels") }
        let planeCount = format.isPlanar ? channels : 1
        var planes: [UnsafeRawPointer] = []
        for plane in 0..<planeCount {
            guard let pointer = frame.extended_data[plane] else { throw DecodeError(.other, detail: "missing audio plane") }
            planes.append(UnsafeRawPointer(pointer))
        }
        var layout = frame.ch_layout
        self.init(sampleFormat: format, sampleRate: Int(frame.sample_rate), channelCount: channels,
                  channelLayout: channelLayoutName(&layout), sampleCount: Int(frame.nb_samples), planes: planes,
                  pts: frame.pts == FFmpegCode.noPTS ? nil : frame.pts, timeBase: timeBase, owner: box)
    }
}
