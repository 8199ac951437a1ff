/// Conversions between premultiplied and straight alpha for 4-byte RGBA/BGRA pixels.
package enum PremultipliedAlpha {
    /// Divides colour by alpha in place (rounded, at most 255; fully transparent pixels
    /// become black).
    package static func unpremultiply(_ buffer: PixelBuffer) {
        forEachTranslucentChannel(of: buffer) { value, alpha in
            alpha == 0 ? 0 : UInt8(min((Int(value) * 255 + alpha / 2) / alpha, 255))
        }
    }

    /// Multiplies colour by alpha in place (rounded).
    package static func premultiply(_ buffer: PixelBuffer) {
        forEachTranslucentChannel(of: buffer) { value, alpha in UInt8((Int(value) * alpha + 127) / 255) }
    }

    /// Replaces the colour channels of every pixel whose alpha is below 255.
    private static func forEachTranslucentChannel(of buffer: PixelBuffer, _ transform: (UInt8, Int) -> UInt8) {
        precondition(buffer.format == .rgba || buffer.format == .bgra)
        let plane = buffer.planes[0]
        for row in 0..<buffer.height {
            let pixels = plane.row(row)
            for index in stride(from: 0, to: 4 * buffer.width, by: 4) {
                let alpha = Int(pixels[index + 3])
                guard alpha < 255 else { continue }
                for channel in 0..<3 { pixels[index + channel] = transform(pixels[index + channel], alpha) }
            }
        }
    }
}
