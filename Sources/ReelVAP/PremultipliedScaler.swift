import ReelCore
import ReelFFmpeg

/// Premultiplied RGBA pictures scaled by libswscale's bicubic filter (`reel vap pack
/// --max-edge`): scaled after premultiplying, so that no colour bleeds from transparent
/// pixels, and each colour kept within its alpha, which the filter's overshoot can break.
///
/// Not `Sendable`: one thread at a time, as libswscale's context requires.
final class PremultipliedScaler {
    private let converter = PictureConverter()

    /// `picture` at `width`×`height`, in a buffer of its own.
    func scaled(_ picture: PixelBuffer, width: Int, height: Int) throws -> PixelBuffer {
        let frame = try converter.convert(picture.videoFrame(), to: .rgba, width: width, height: height, quality: .accurate)
        let output = try ImageFile.copy(frame)
        for row in 0..<height {
            let pixels = output.planes[0].row(row)
            for column in 0..<width {
                let alpha = pixels[4 * column + 3]
                for channel in 0..<3 { pixels[4 * column + channel] = min(pixels[4 * column + channel], alpha) }
            }
        }
        return output
    }
}
