/// Conversions between premultiplied and straight alpha for 4-byte RGBA/BGRA pixels.
public enum PremultipliedAlpha {
    /// Divides colour by alpha in place (rounded; fully transparent pixels become black).
    public static func unpremultiply(_ buffer: PixelBuffer) {
        precondition(buffer.format == .rgba || buffer.format == .bgra)
        let plane = buffer.planes[0]
        for row in 0..<buffer.height {
            let pixels = plane.row(row)
            for index in stride(from: 0, to: 4 * buffer.width, by: 4) {
                let alpha = Int(pixels[index + 3])
                guard alpha < 255 else { continue }
                for channel in 0..<3 {
                    pixels[index + channel] = alpha == 0 ? 0 : UInt8(min((Int(pixels[index + channel]) * 255 + alpha / 2) / alpha, 255))
                }
            }
        }
    }

    /// Multiplies colour by alpha in place (rounded).
    public static func premultiply(_ buffer: PixelBuffer) {
        precondition(buffer.format == .rgba || buffer.format == .bgra)
        let plane = buffer.planes[0]
        for row in 0..<buffer.height {
            let pixels = plane.row(row)
            for index in stride(from: 0, to: 4 * buffer.width, by: 4) {
                let alpha = Int(pixels[index + 3])
                guard alpha < 255 else { continue }
                for channel in 0..<3 {
                    pixels[index + channel] = UInt8((Int(pixels[index + channel]) * alpha + 127) / 255)
                }
            }
        }
    }
}
