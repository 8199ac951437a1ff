import CFFmpeg
import ReelCore

/// Converts pictures between pixel formats and sizes with libswscale, into buffers it
/// owns (one per output, reused while the shape stays the same).
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class PictureConverter {
    private var context: OpaquePointer?
    private var storage: HeapStorage?
    private var storageShape = ""

    /// A converter; it keeps its scratch memory between pictures of the same shape.
    public init() {}

    deinit { sws_freeContext(context) }

    /// Uses the frame's matrix (BT.601 when untagged, as FFmpeg does) and range for YUV input.
    private static func applyColorDetails(_ context: OpaquePointer, _ color: ColorDescription) {
        let space: Int32 = switch color.matrix {
        case .bt709: SWS_CS_ITU709
        case .bt2020nc, .bt2020c: SWS_CS_BT2020
        case .smpte240m: SWS_CS_SMPTE240M
        case .fcc: SWS_CS_FCC
        default: SWS_CS_ITU601
        }
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(context, &inverse, &sourceRange, &table, &destinationRange, &brightness, &contrast, &saturation) >= 0 else { return }
        if color.range != .unspecified { sourceRange = color.range == .full ? 1 : 0 }
        sws_setColorspaceDetails(context, sws_getCoefficients(space), sourceRange, table, destinationRange, brightness, contrast, saturation)
    }

    /// How carefully to convert.
    public enum Quality: Sendable {
        /// Bilinear, fast.
        case fast
        /// Bicubic with accurate rounding and full chroma interpolation: for what people look at.
        case accurate

        var flags: Int32 {
            switch self {
            case .fast: SWS_BILINEAR
            case .accurate: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
            }
        }
    }

    /// `frame` as `format` at `width`×`height` (its own size by default), honouring the
    /// frame's colour matrix and range. The result is valid until the next call.
    public func convert(_ frame: VideoFrame, to format: PixelFormat, width: Int? = nil, height: Int? = nil,
                        quality: Quality = .fast) throws -> VideoFrame {
        let outWidth = width ?? frame.width, outHeight = height ?? frame.height
        let source = av_get_pix_fmt(frame.pixelFormat.rawValue), target = av_get_pix_fmt(format.rawValue)
        guard source != AV_PIX_FMT_NONE, target != AV_PIX_FMT_NONE else {
            throw DecodeError(.other, detail: "cannot convert \(frame.pixelFormat) to \(format)")
        }
        context = sws_getCachedContext(context, Int32(frame.width), Int32(frame.height), source,
                                       Int32(outWidth), Int32(outHeight), target, quality.flags, nil, nil, nil)
        guard let context else { throw DecodeError(.other, detail: "libswscale cannot convert \(frame.pixelFormat) to \(format)") }
        Self.applyColorDetails(context, frame.color)

        var lineSizes = [Int32](repeating: 0, count: 4)
        av_image_fill_linesizes(&lineSizes, target, Int32(outWidth))
        lineSizes = lineSizes.map { ($0 + 63) & ~63 }
        var planeSizes = [Int](repeating: 0, count: 4)
        av_image_fill_plane_sizes(&planeSizes, target, Int32(outHeight), lineSizes.map { Int($0) })
        let shape = "\(format) \(outWidth)x\(outHeight)"
        if shape != storageShape {
            storage = HeapStorage(byteCount: planeSizes.reduce(0, +))
            storageShape = shape
        }
        let base = storage!.bytes.baseAddress!
        var destination: [UnsafeMutablePointer<UInt8>?] = []
        var offset = 0
        for plane in 0..<4 {
            destination.append(planeSizes[plane] > 0 ? (base + offset).assumingMemoryBound(to: UInt8.self) : nil)
            offset += planeSizes[plane]
        }
        let sources: [UnsafePointer<UInt8>?] = (0..<4).map { $0 < frame.planes.count ? frame.planes[$0].baseAddress.assumingMemoryBound(to: UInt8.self) : nil }
        let sourceStrides: [Int32] = (0..<4).map { $0 < frame.planes.count ? Int32(frame.planes[$0].bytesPerRow) : 0 }
        sws_scale(context, sources, sourceStrides, 0, Int32(frame.height), destination, lineSizes)

        var rowBytes = [Int32](repeating: 0, count: 4)
        av_image_fill_linesizes(&rowBytes, target, Int32(outWidth))
        let planes = (0..<4).compactMap { plane -> PlaneView? in
            guard let pointer = destination[plane], rowBytes[plane] > 0 else { return nil }
            return PlaneView(baseAddress: UnsafeRawPointer(pointer), bytesPerRow: Int(lineSizes[plane]),
                             rowByteCount: Int(rowBytes[plane]), rowCount: planeSizes[plane] / Int(lineSizes[plane]))
        }
        var result = frame
        result.width = outWidth
        result.height = outHeight
        result.pixelFormat = format
        result.planes = planes
        result.owner = storage!
        return result
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension PictureConverter: Sendable {}
