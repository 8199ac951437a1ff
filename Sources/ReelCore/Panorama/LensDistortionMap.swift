/// For every pixel of one eye's viewport, where each colour channel reads the undistorted
/// eye picture (bilinear, in 1/16384), through a ``LensDistortion``. Pixels whose source
/// falls outside the picture are black.
public struct LensDistortionMap: Sendable {
    /// The eye picture's width in pixels.
    public let width: Int
    /// The eye picture's height in pixels.
    public let height: Int
    /// The lens the map undoes.
    public let distortion: LensDistortion
    /// Half the eye's width in the undistorted picture is `reach` times smaller than in
    /// the viewport: the picture spans ±reach half-widths.
    public let reach: Float
    /// Per pixel and channel (red, green, blue): the top-left source pixel, −1 when outside.
    let origins: [Int32]
    /// Per pixel and channel: four weights.
    let weights: [Int16]

    /// Where the lens's centre is across the viewport, as a share of its width.
    public let lensCentre: Float

    /// - Parameters:
    ///   - width: the eye's viewport width, and its undistorted picture's.
    ///   - height: their height.
    ///   - distortion: the lens.
    ///   - lensCentre: where the lens's centre is across the viewport, as a share of its
    ///     width (0.5 in the middle); the middle of the undistorted picture is seen there.
    public init(width: Int, height: Int, distortion: LensDistortion, lensCentre: Float = 0.5) throws {
        guard lensCentre >= 0, lensCentre <= 1 else { throw PanoramaError.invalidLensCentre(lensCentre) }
        guard width > 1, height > 1, width <= PanoramaMap.maxDimension, height <= PanoramaMap.maxDimension else {
            throw PanoramaError.invalidSize(min(width, height))
        }
        self.width = width
        self.height = height
        self.distortion = distortion
        let reach = distortion.reach(aspect: Float(width) / Float(height), lensCentre: lensCentre)
        self.reach = reach
        self.lensCentre = lensCentre
        var origins = [Int32](repeating: -1, count: width * height * 3)
        var weights = [Int16](repeating: 0, count: width * height * 12)
        let halfWidth = Float(width) / 2, centre = SIMD2<Float>(Float(width) / 2, Float(height) / 2)
        let lens = SIMD2<Float>(Float(width) * lensCentre, Float(height) / 2)
        let scales = [distortion.red, distortion.green, distortion.blue]
        for y in 0..<height {
            for x in 0..<width {
                let point = (SIMD2<Float>(Float(x) + 0.5, Float(y) + 0.5) - lens) / halfWidth
                for channel in 0..<3 {
                    // In the undistorted picture, ±reach half-widths span its width.
                    let source = distortion.sourcePoint(point, scale: scales[channel]) / reach * halfWidth + centre - 0.5
                    guard source.x >= 0, source.y >= 0, source.x <= Float(width - 1), source.y <= Float(height - 1) else { continue }
                    let column = min(Int(source.x), width - 2), row = min(Int(source.y), height - 2)
                    let dx = source.x - Float(column), dy = source.y - Float(row)
                    let index = (y * width + x) * 3 + channel
                    origins[index] = Int32(row * width + column)
                    weights[index * 4] = Int16(((1 - dx) * (1 - dy) * 16384).rounded())
                    weights[index * 4 + 1] = Int16((dx * (1 - dy) * 16384).rounded())
                    weights[index * 4 + 2] = Int16(((1 - dx) * dy * 16384).rounded())
                    weights[index * 4 + 3] = Int16((dx * dy * 16384).rounded())
                }
            }
        }
        self.origins = origins
        self.weights = weights
    }

    /// Warps a BGRA or RGBA eye picture (this map's size) into `output`, a BGRA/RGBA
    /// plane, at column `x` (the eye's viewport). Alpha is opaque.
    public func apply(_ source: PixelPlane, into output: PixelPlane, atColumn x: Int, redFirst: Bool) {
        precondition(source.rowByteCount >= width * 4 && source.rowCount >= height)
        precondition(output.rowByteCount >= (x + width) * 4 && output.rowCount >= height)
        let stride = source.bytesPerRow
        let channelBytes = redFirst ? [0, 1, 2] : [2, 1, 0]
        origins.withUnsafeBufferPointer { origins in
            weights.withUnsafeBufferPointer { weights in
                let base = UnsafePointer<UInt8>(source.row(0))
                for y in 0..<height {
                    let line = output.row(y) + x * 4
                    for column in 0..<width {
                        let pixel = line + column * 4
                        for channel in 0..<3 {
                            let index = (y * width + column) * 3 + channel
                            let origin = Int(origins[index])
                            guard origin >= 0 else {
                                pixel[channelBytes[channel]] = 0
                                continue
                            }
                            let byte = channelBytes[channel]
                            let top = base + (origin / width) * stride + (origin % width) * 4 + byte
                            let sum = Int32(weights[index * 4]) * Int32(top[0]) + Int32(weights[index * 4 + 1]) * Int32(top[4])
                                + Int32(weights[index * 4 + 2]) * Int32(top[stride]) + Int32(weights[index * 4 + 3]) * Int32(top[stride + 4])
                            pixel[byte] = UInt8(truncatingIfNeeded: min(max((sum + 8192) >> 14, 0), 255))
                        }
                        pixel[3] = 255
                    }
                }
            }
        }
    }
}
