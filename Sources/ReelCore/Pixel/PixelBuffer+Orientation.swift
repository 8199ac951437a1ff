extension PixelBuffer {
    /// The picture turned and mirrored as `orientation` says, in a buffer from `pool`: the
    /// same samples moved, nothing interpolated, so the result is bit-identical to FFmpeg's
    /// transpose, hflip and vflip filters. Every ``PixelBufferFormat`` turns, since their
    /// chroma is subsampled alike both ways (4:2:0) or not at all.
    public func reoriented(_ orientation: PictureOrientation, pool: PixelBufferPool) throws -> PixelBuffer {
        let size = orientation.orientedSize(width: width, height: height)
        let result = try pool.makeBuffer(format: format, width: size.width, height: size.height, matrix: matrix, range: range)
        for (plane, (source, destination)) in zip(planes, result.planes).enumerated() {
            // What moves as a whole: a sample, an interleaved U,V pair, a BGRA pixel.
            switch Self.elementBytes(format: format, plane: plane) {
            case 1: Self.reorient(source, into: destination, as: UInt8.self, orientation)
            case 2: Self.reorient(source, into: destination, as: UInt16.self, orientation)
            default: Self.reorient(source, into: destination, as: UInt32.self, orientation)
            }
        }
        return result
    }

    /// Bytes that move together in `plane`.
    static func elementBytes(format: PixelBufferFormat, plane: Int) -> Int {
        switch (format, plane) {
        case (.bgra, _), (.rgba, _): 4
        case (.nv12, 1), (.nv21, 1): 2
        default: format.bytesPerSample
        }
    }

    /// Moves every element of `source` to its place in `destination`, in square tiles so
    /// that both the rows read and the rows written stay in cache while a transpose walks
    /// down columns.
    private static func reorient<Element>(_ source: PixelPlane, into destination: PixelPlane, as _: Element.Type,
                                          _ orientation: PictureOrientation) {
        let size = MemoryLayout<Element>.size
        let width = destination.rowByteCount / size, height = destination.rowCount
        let sourceWidth = source.rowByteCount / size, sourceHeight = source.rowCount
        let transposed = orientation.transposed, reversedRows = orientation.reversedRows, reversedColumns = orientation.reversedColumns
        // Destination (x, y) reads source (column, row):
        //   transposed: column = y, row = x; otherwise column = x, row = y; each from the far end when reversed.
        let sourceStride = source.bytesPerRow / size
        let sourceBase = source.baseAddress.assumingMemoryBound(to: Element.self)
        if !transposed {
            for y in 0..<height {
                let from = sourceBase + (reversedRows ? sourceHeight - 1 - y : y) * sourceStride
                let to = (destination.baseAddress + y * destination.bytesPerRow).assumingMemoryBound(to: Element.self)
                if reversedColumns {
                    for x in 0..<width { to[x] = from[sourceWidth - 1 - x] }
                } else {
                    to.update(from: from, count: width)
                }
            }
            return
        }
        let tile = 32
        // Stepping through the source: one destination column step is one source row;
        // one destination row step is one source column.
        let rowStep = reversedRows ? -sourceStride : sourceStride
        let columnStep = reversedColumns ? -1 : 1
        let firstRow = reversedRows ? sourceHeight - 1 : 0
        let firstColumn = reversedColumns ? sourceWidth - 1 : 0
        for tileY in stride(from: 0, to: height, by: tile) {
            for tileX in stride(from: 0, to: width, by: tile) {
                for y in tileY..<min(tileY + tile, height) {
                    let to = (destination.baseAddress + y * destination.bytesPerRow).assumingMemoryBound(to: Element.self)
                    var from = sourceBase + (firstRow * sourceStride + firstColumn) + y * columnStep + tileX * rowStep
                    for x in tileX..<min(tileX + tile, width) {
                        to[x] = from.pointee
                        from += rowStep
                    }
                }
            }
        }
    }
}
