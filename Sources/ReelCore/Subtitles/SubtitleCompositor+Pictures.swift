extension SubtitleCompositor {
    /// Blends a picture subtitle into the `width`×`height` picture in `plane`, as FFmpeg's
    /// `overlay` filter blends a subtitle canvas in RGB: straight alpha, `x / 255` taken as
    /// `((x + 128) × 257) >> 16`. A canvas of another size than the picture is stretched
    /// onto it, each pixel taking the canvas sample under its centre.
    public static func blend(_ picture: SubtitlePicture, into plane: PixelPlane, width: Int, height: Int, layout: Layout) {
        let canvasWidth = picture.canvasWidth > 0 ? picture.canvasWidth : width
        let canvasHeight = picture.canvasHeight > 0 ? picture.canvasHeight : height
        let step = layout.bytesPerPixel, offsets = layout.offsets
        for rect in picture.rects where rect.width > 0 && rect.height > 0 {
            let left = max(rect.x * width / canvasWidth, 0), right = min(((rect.x + rect.width) * width + canvasWidth - 1) / canvasWidth, width)
            let top = max(rect.y * height / canvasHeight, 0), bottom = min(((rect.y + rect.height) * height + canvasHeight - 1) / canvasHeight, height)
            guard left < right, top < bottom else { continue }
            rect.indices.withUnsafeBufferPointer { indices in
                for y in top..<bottom {
                    let sourceY = (2 * y + 1) * canvasHeight / (2 * height) - rect.y
                    guard sourceY >= 0, sourceY < rect.height else { continue }
                    let row = plane.row(y)
                    for x in left..<right {
                        let sourceX = (2 * x + 1) * canvasWidth / (2 * width) - rect.x
                        guard sourceX >= 0, sourceX < rect.width else { continue }
                        let index = Int(indices[sourceY * rect.width + sourceX])
                        guard index < rect.palette.count else { continue }
                        let color = rect.palette[index]
                        let alpha = color >> 24
                        if alpha == 0 { continue }
                        let pixel = row + x * step
                        pixel[offsets.red] = mix(pixel[offsets.red], UInt32((color >> 16) & 0xFF), alpha)
                        pixel[offsets.green] = mix(pixel[offsets.green], UInt32((color >> 8) & 0xFF), alpha)
                        pixel[offsets.blue] = mix(pixel[offsets.blue], UInt32(color & 0xFF), alpha)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func mix(_ pixel: UInt8, _ color: UInt32, _ alpha: UInt32) -> UInt8 {
        let sum = UInt32(pixel) * (255 - alpha) + color * alpha
        return UInt8(((sum + 128) * 257) >> 16)
    }
}
