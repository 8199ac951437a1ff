/// Paints subtitle masks onto a picture.
///
/// The arithmetic is FFmpeg's (`ff_blend_mask` in libavfilter's drawutils, which its
/// `subtitles` and `ass` filters use): the colour's opacity is scaled to a 24-bit fraction,
/// multiplied by the mask's coverage, and mixed with the pixel in 32-bit integers. A
/// picture blended here equals, in its colours, the one those filters make from the same
/// masks.
public enum SubtitleCompositor {
    /// The packed RGB layouts masks are blended into.
    public enum Layout: Sendable {
        /// Three bytes a pixel: red, green, blue (FFmpeg's `rgb24`).
        case rgb24
        /// Four bytes a pixel: blue, green, red, alpha.
        case bgra
        /// Four bytes a pixel: red, green, blue, alpha.
        case rgba

        var bytesPerPixel: Int { self == .rgb24 ? 3 : 4 }
        var offsets: (red: Int, green: Int, blue: Int) { self == .bgra ? (2, 1, 0) : (0, 1, 2) }
    }

    /// Blends `masks`, in order, into the `width`×`height` picture in `plane`, laid out as
    /// `layout`. Only the colour bytes change (an alpha byte is kept); parts of a mask
    /// outside the picture are cut off.
    public static func blend(_ masks: [SubtitleMask], into plane: PixelPlane, width: Int, height: Int, layout: Layout) {
        let step = layout.bytesPerPixel, offsets = layout.offsets
        for mask in masks where mask.opacity > 0 {
            let left = max(mask.x, 0), right = min(mask.x + mask.width, width)
            let top = max(mask.y, 0), bottom = min(mask.y + mask.height, height)
            guard left < right, top < bottom else { continue }
            let alpha = (0x10307 * UInt32(mask.opacity) + 3) >> 8
            let red = UInt32(mask.red), green = UInt32(mask.green), blue = UInt32(mask.blue)
            mask.coverage.withUnsafeBufferPointer { coverage in
                for y in top..<bottom {
                    let row = plane.row(y)
                    let maskRow = (y - mask.y) * mask.width - mask.x
                    for x in left..<right {
                        let covered = UInt32(coverage[maskRow + x])
                        if covered == 0 { continue }
                        let weight = covered &* alpha
                        let keep = 0x1010101 &- weight
                        let pixel = row + x * step
                        pixel[offsets.red] = UInt8((keep &* UInt32(pixel[offsets.red]) &+ weight &* red) >> 24)
                        pixel[offsets.green] = UInt8((keep &* UInt32(pixel[offsets.green]) &+ weight &* green) >> 24)
                        pixel[offsets.blue] = UInt8((keep &* UInt32(pixel[offsets.blue]) &+ weight &* blue) >> 24)
                    }
                }
            }
        }
    }
}
