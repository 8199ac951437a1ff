import ReelCore
import ReelFFmpeg

extension FrameTap {
    /// A tap that converts layouts Reel does not handle itself (4:2:2, 4:4:4, 12-bit…)
    /// with libswscale.
    public static func withLibswscaleFallback() -> FrameTap {
        FrameTap(fallbackConverter: { frame, format in
            let buffer = try PixelBuffer(format: format, width: frame.width, height: frame.height,
                                         matrix: YUVMatrix(frame.color.matrix), range: frame.color.range == .full ? .full : .limited)
            try SwscaleConverter().convert(frame, into: buffer, flags: [.bilinear, .accurateRounding, .fullChromaInterpolation])
            return buffer
        })
    }
}
