/// Premultiplied RGBA laid over a gray checkerboard, as image editors show transparency.
package enum Checkerboard {
    /// An opaque RGBA picture: `picture` over squares of `squareSize` pixels.
    package static func composite(_ picture: PixelBuffer, squareSize: Int = 16, into output: PixelBuffer) {
        precondition(picture.format == .rgba && output.format == .rgba && output.width == picture.width && output.height == picture.height)
        for row in 0..<picture.height {
            let source = picture.planes[0].row(row), out = output.planes[0].row(row)
            for column in 0..<picture.width {
                let background: Int = ((row / squareSize) + (column / squareSize)) % 2 == 0 ? 204 : 153
                let alpha = Int(source[4 * column + 3])
                let keep = 255 - alpha
                for channel in 0..<3 {
                    out[4 * column + channel] = UInt8(min(Int(source[4 * column + channel]) + (background * keep + 127) / 255, 255))
                }
                out[4 * column + 3] = 255
            }
        }
    }
}
