import CFFmpeg
import ReelCore

/// libswscale over Reel's buffers: converts any decoded layout into a ``PixelBuffer``
/// (at the buffer's size), for layouts Reel does not convert itself and as the oracle
/// Reel's own conversions are measured against.
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class SwscaleConverter {
    private var context: OpaquePointer?

    /// libswscale's flags.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Nearest-neighbour scaling (`SWS_POINT`).
        public static let point = Flags(rawValue: SWS_POINT)
        /// Bilinear scaling (`SWS_BILINEAR`).
        public static let bilinear = Flags(rawValue: SWS_BILINEAR)
        /// The same output on every CPU (`SWS_BITEXACT`).
        public static let bitExact = Flags(rawValue: SWS_BITEXACT)
        /// Exact rounding in the YUV ⇄ RGB matrices (`SWS_ACCURATE_RND`).
        public static let accurateRounding = Flags(rawValue: SWS_ACCURATE_RND)
        /// Full chroma interpolation on output (`SWS_FULL_CHR_H_INT`).
        public static let fullChromaInterpolation = Flags(rawValue: SWS_FULL_CHR_H_INT)
        /// What Reel's own conversions equal byte for byte.
        public static let reelExact: Flags = [.point, .bitExact, .accurateRounding, .fullChromaInterpolation]
    }

    /// A converter; its libswscale context is made on first use and kept while shapes repeat.
    public init() {}

    deinit { sws_freeContext(context) }

    /// Converts `frame` into `destination`, scaling to its size; the YUV side's matrix and
    /// range are the frame's (source) or the buffer's (destination).
    public func convert(_ frame: VideoFrame, into destination: PixelBuffer, flags: Flags = .reelExact) throws {
        let source = av_get_pix_fmt(frame.pixelFormat.rawValue), target = av_get_pix_fmt(destination.format.rawValue)
        guard source != AV_PIX_FMT_NONE else { throw PixelConversionError.unsupportedFormat(frame.pixelFormat.rawValue) }
        context = sws_getCachedContext(context, Int32(frame.width), Int32(frame.height), source,
                                       Int32(destination.width), Int32(destination.height), target, flags.rawValue, nil, nil, nil)
        guard let context else { throw PixelConversionError.unsupportedFormat(frame.pixelFormat.rawValue) }
        let sourceFull: Int32 = frame.pixelFormat == .yuvj420p || frame.color.range == .full ? 1 : 0
        // Only where RGB is involved: libswscale 5.1 crashes in sws_scale after colour
        // details are set on some YUV → YUV contexts (NV12 → I420).
        let sourceIsRGB = frame.color.matrix == .rgb || av_pix_fmt_desc_get(source).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        if sourceIsRGB || !destination.format.isYUV {
            sws_setColorspaceDetails(context, sws_getCoefficients(Self.space(YUVMatrix(frame.color.matrix))), sourceFull,
                                 sws_getCoefficients(Self.space(destination.matrix)), destination.range == .full ? 1 : 0,
                                     0, 1 << 16, 1 << 16)
        }
        let sources: [UnsafePointer<UInt8>?] = (0..<4).map { $0 < frame.planes.count ? frame.planes[$0].baseAddress.assumingMemoryBound(to: UInt8.self) : nil }
        let sourceStrides: [Int32] = (0..<4).map { $0 < frame.planes.count ? Int32(frame.planes[$0].bytesPerRow) : 0 }
        let targets: [UnsafeMutablePointer<UInt8>?] = (0..<4).map { $0 < destination.planes.count ? destination.planes[$0].row(0) : nil }
        let targetStrides: [Int32] = (0..<4).map { $0 < destination.planes.count ? Int32(destination.planes[$0].bytesPerRow) : 0 }
        sws_scale(context, sources, sourceStrides, 0, Int32(frame.height), targets, targetStrides)
    }

    private static func space(_ matrix: YUVMatrix) -> Int32 {
        switch matrix {
        case .bt601: SWS_CS_ITU601
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension SwscaleConverter: Sendable {}
