import ReelPixelKernels

/// Draws premultiplied RGBA pictures over a 32-bit RGB picture with the arithmetic of
/// FFmpeg's `overlay` filter on packed RGB with `alpha=premultiplied`
/// (`blend_slice_packed_rgb`): each colour becomes min(d·(255 − α)/255 + s, 255), the
/// division as its `FAST_DIV255`, ((x + 128) · 257) >> 16, and a pixel of alpha 0 leaves
/// the picture as it is (even where VAP's compression left it some colour). A picture
/// blended here equals the one that filter makes from the same pictures.
///
/// The loop below is the portable one; `PixelKernel` picks a C kernel for this CPU's
/// vector instructions where there is one (the same bytes).
public enum PremultipliedBlend {
    /// Blends `overlay` (RGBA, premultiplied, drawn at its own size) onto `base` (BGRA or
    /// RGBA) with its top-left corner at (`x`, `y`); parts outside `base` are cut off.
    /// The base's alpha bytes are kept.
    public static func blend(_ overlay: PixelBuffer, onto base: PixelBuffer, x: Int, y: Int) {
        blend(overlay, onto: base, x: x, y: y, kernel: .preferred)
    }

    /// ``blend(_:onto:x:y:)`` with the given kernel.
    package static func blend(_ overlay: PixelBuffer, onto base: PixelBuffer, x: Int, y: Int, kernel: PixelKernel) {
        precondition(overlay.format == .rgba && (base.format == .bgra || base.format == .rgba))
        let left = max(x, 0), right = min(x + overlay.width, base.width)
        let top = max(y, 0), bottom = min(y + overlay.height, base.height)
        guard left < right, top < bottom else { return }
        if kernel != .portable {
            let source = overlay.planes[0], target = base.planes[0]
            let status = reel_blend_premultiplied(source.row(top - y) + 4 * (left - x), source.bytesPerRow, target.row(top) + 4 * left,
                                                  target.bytesPerRow, Int32(right - left), Int32(bottom - top),
                                                  base.format == .bgra ? 1 : 0, kernel.code)
            if status == 0 { return }
        }
        // The overlay's red goes to the base's red byte: 2 in BGRA, 0 in RGBA.
        let red = base.format == .bgra ? 2 : 0
        for row in top..<bottom {
            let source = overlay.planes[0].row(row - y), target = base.planes[0].row(row)
            for column in left..<right {
                let s = source + 4 * (column - x), d = target + 4 * column
                let alpha = UInt32(s[3])
                if alpha == 0 { continue }
                let keep = 255 - alpha
                d[red] = mix(d[red], s[0], keep)
                d[1] = mix(d[1], s[1], keep)
                d[2 - red] = mix(d[2 - red], s[2], keep)
            }
        }
    }

    @inline(__always)
    private static func mix(_ base: UInt8, _ overlay: UInt8, _ keep: UInt32) -> UInt8 {
        let kept = ((UInt32(base) * keep + 128) * 257) >> 16
        return UInt8(min(kept + UInt32(overlay), 255))
    }
}
