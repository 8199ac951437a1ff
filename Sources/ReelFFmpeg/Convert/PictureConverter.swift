import CFFmpeg
import ReelCore

/// Converts pictures between pixel formats and sizes with libswscale, into buffers it
/// owns (one per output, reused while the shape stays the same).
public final class PictureConverter {
    private var context: OpaquePointer?
    private var storage: HeapStorage?
    private var storageShape = ""

    public init() {}

    deinit { sws_freeContext(context) }

    /// `frame` as `format` at `width`×`height` (its own size by default). The result is
    /// valid until the next call.
    public func convert(_ frame: VideoFrame, to format: PixelFormat, width: Int? = nil, height: Int? = nil) throws -> VideoFrame {
        let outWidth = width ?? frame.width, outHeight = height ?? frame.height
        let source = av_get_pix_fmt(frame.pixelFormat.rawValue), target = av_get_pix_fmt(format.rawValue)
        guard source != AV_PIX_FMT_NONE, target != AV_PIX_FMT_NONE else {
            throw DecodeError(.other, detail: "cannot convert \(frame.pixelFormat) to \(format)")
        }
        context = sws_getCachedContext(context, Int32(frame.width), Int32(frame.height), source,
                                       Int32(outWidth), Int32(outHeight), target, SWS_BILINEAR, nil, nil, nil)
        guard let context else { throw DecodeError(.other, detail: "libswscale cannot convert \(frame.pixelFormat) to \(format)") }

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
