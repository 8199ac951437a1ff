/// Bilinear resizing of RGBA pictures (premultiplied, so that colour does not bleed from
/// transparent pixels), for fusion sources fitted once to an object's frame.
package enum RGBAResampler {
    /// `source` scaled to `width`×`height`: stretched, or with `cropToFill` scaled to
    /// cover the size keeping its aspect ratio and centred, the overflow cut off.
    package static func fit(_ source: PixelBuffer, width: Int, height: Int, cropToFill: Bool) throws -> PixelBuffer {
        let output = try PixelBuffer(format: .rgba, width: width, height: height)
        // The part of the source that is shown, in source pixels.
        var visibleWidth = Double(source.width), visibleHeight = Double(source.height)
        if cropToFill {
            let scale = max(Double(width) / Double(source.width), Double(height) / Double(source.height))
            visibleWidth = Double(width) / scale
            visibleHeight = Double(height) / scale
        }
        let left = (Double(source.width) - visibleWidth) / 2, top = (Double(source.height) - visibleHeight) / 2
        func position(_ output: Int, _ count: Int, _ visible: Double, _ start: Double, _ sourceCount: Int) -> (Int, Int, Double) {
            let exact = min(max(start + (Double(output) + 0.5) * visible / Double(count) - 0.5, 0), Double(sourceCount - 1))
            let first = Int(exact)
            return (first, min(first + 1, sourceCount - 1), exact - Double(first))
        }
        let columns = (0..<width).map { position($0, width, visibleWidth, left, source.width) }
        for row in 0..<height {
            let (top0, top1, fy) = position(row, height, visibleHeight, top, source.height)
            let upper = source.planes[0].row(top0), lower = source.planes[0].row(top1)
            let out = output.planes[0].row(row)
            for (column, (x0, x1, fx)) in columns.enumerated() {
                for channel in 0..<4 {
                    let a = Double(upper[4 * x0 + channel]), b = Double(upper[4 * x1 + channel])
                    let c = Double(lower[4 * x0 + channel]), d = Double(lower[4 * x1 + channel])
                    let value = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
                    out[4 * column + channel] = UInt8(min(max(value.rounded(), 0), 255))
                }
            }
        }
        return output
    }
}
