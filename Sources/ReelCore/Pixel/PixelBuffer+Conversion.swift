extension PixelBuffer {
    /// Converts (a `crop` of) this picture into `destination`, which must be the crop's
    /// size. YUV ⇄ RGB uses the YUV side's matrix and range: this buffer's for YUV
    /// sources, `destination`'s for YUV destinations.
    ///
    /// Supported: any of I420, NV12, NV21 to any of them, BGRA and RGBA; BGRA and RGBA
    /// to any of them and 10-bit I420; 10-bit I420 to itself, BGRA and RGBA. Crops of 4:2:0
    /// pictures start on even coordinates.
    public func convert(into destination: PixelBuffer, crop: PixelRect? = nil) throws {
        try convert(into: destination, crop: crop, kernel: .preferred)
    }

    /// ``convert(into:crop:)`` with the given kernel for YUV ⇄ RGB.
    package func convert(into destination: PixelBuffer, crop: PixelRect? = nil, kernel: PixelKernel) throws {
        let area = crop ?? PixelRect(x: 0, y: 0, width: width, height: height)
        guard area.fits(width: width, height: height) else { throw PixelConversionError.cropOutside(area, width: width, height: height) }
        if format.isYUV, area.x % 2 != 0 || area.y % 2 != 0 { throw PixelConversionError.cropNotOnChromaGrid(area) }
        guard destination.width == area.width, destination.height == area.height else {
            throw PixelConversionError.destinationSize(expected: (area.width, area.height), got: (destination.width, destination.height))
        }
        let origin = (x: area.x, y: area.y)
        switch (format, destination.format) {
        case (.i420p10, .i420p10), (.bgra, .bgra), (.rgba, .rgba):
            for (index, plane) in destination.planes.enumerated() {
                let scale = index == 0 ? 1 : 2
                let bytesPerPixel = format == .i420p10 ? 2 : 4
                ChromaLayout.copyRows(from: planes[index], byteOffset: origin.x / scale * bytesPerPixel, rowOffset: origin.y / scale,
                                      to: plane, byteCount: plane.rowByteCount, rows: plane.rowCount)
            }
        case (.bgra, .rgba), (.rgba, .bgra):
            swapRedAndBlue(origin: origin, into: destination)
        case (.i420, .i420), (.i420, .nv12), (.i420, .nv21), (.nv12, .i420), (.nv12, .nv12), (.nv12, .nv21),
             (.nv21, .i420), (.nv21, .nv12), (.nv21, .nv21):
            ChromaLayout.copyRows(from: planes[0], byteOffset: origin.x, rowOffset: origin.y, to: destination.planes[0],
                                  byteCount: destination.width, rows: destination.height)
            convertChroma(origin: origin, into: destination)
        case (.i420, .bgra), (.i420, .rgba), (.nv12, .bgra), (.nv12, .rgba), (.nv21, .bgra), (.nv21, .rgba):
            YUVToRGB.convert(luma: planes[0], chroma: chromaSource, origin: origin, width: area.width, height: area.height,
                             into: destination.planes[0], order: destination.format,
                             coefficients: YUVToRGBCoefficients(matrix: matrix, range: range), kernel: kernel)
        case (.i420p10, .bgra), (.i420p10, .rgba):
            YUVToRGB.convert10(luma: planes[0], u: planes[1], v: planes[2], origin: origin, width: area.width, height: area.height,
                               into: destination.planes[0], order: destination.format,
                               coefficients: YUVToRGBCoefficients(matrix: matrix, range: range), kernel: kernel)
        case (.bgra, .i420), (.bgra, .nv12), (.bgra, .nv21), (.rgba, .i420), (.rgba, .nv12), (.rgba, .nv21), (.bgra, .i420p10), (.rgba, .i420p10):
            let chroma = destination.chromaSource
            RGBToYUV.convert(planes[0], order: format, origin: origin, width: area.width, height: area.height,
                             into: .init(luma: destination.planes[0], u: chroma.u, uOffset: chroma.uOffset, v: chroma.v,
                                         vOffset: chroma.vOffset, step: chroma.step, tenBit: destination.format == .i420p10),
                             matrix: destination.matrix, fullRange: destination.range == .full, kernel: kernel)
        default:
            throw PixelConversionError.unsupportedConversion(from: format, to: destination.format)
        }
    }

    /// This picture (or a `crop` of it) in `format`, in a new buffer from `pool` when
    /// given. A YUV result takes this buffer's matrix and range (BT.601 limited from RGB).
    public func converted(to format: PixelBufferFormat, crop: PixelRect? = nil, pool: PixelBufferPool? = nil) throws -> PixelBuffer {
        let size = crop.map { ($0.width, $0.height) } ?? (width, height)
        var destination = try pool?.makeBuffer(format: format, width: size.0, height: size.1)
            ?? PixelBuffer(format: format, width: size.0, height: size.1)
        destination.matrix = matrix
        destination.range = range
        try convert(into: destination, crop: crop)
        return destination
    }

    /// U and V of an 8-bit 4:2:0 buffer, planar or interleaved.
    var chromaSource: YUVToRGB.Chroma {
        switch format {
        case .nv12: YUVToRGB.Chroma(u: planes[1], uOffset: 0, v: planes[1], vOffset: 1, step: 2)
        case .nv21: YUVToRGB.Chroma(u: planes[1], uOffset: 1, v: planes[1], vOffset: 0, step: 2)
        default: YUVToRGB.Chroma(u: planes[1], uOffset: 0, v: planes[2], vOffset: 0, step: 1)
        }
    }

    private func convertChroma(origin: (x: Int, y: Int), into destination: PixelBuffer) {
        let source = chromaSource, target = destination.chromaSource
        let columns = (destination.width + 1) / 2, rows = (destination.height + 1) / 2
        let firstColumn = origin.x / 2, firstRow = origin.y / 2
        for row in 0..<rows {
            let u = UnsafePointer(source.u.row(firstRow + row) + source.uOffset + firstColumn * source.step)
            let v = UnsafePointer(source.v.row(firstRow + row) + source.vOffset + firstColumn * source.step)
            let outU = target.u.row(row) + target.uOffset, outV = target.v.row(row) + target.vOffset
            switch (source.step, target.step) {
            case (1, 1):
                outU.update(from: u, count: columns)
                outV.update(from: v, count: columns)
            case (1, _):
                target.uOffset == 0 ? ChromaLayout.interleave(u: u, v: v, into: outU, count: columns)
                    : ChromaLayout.interleave(u: v, v: u, into: outV, count: columns)
            case (_, 1):
                source.uOffset == 0 ? ChromaLayout.deinterleave(u, first: outU, second: outV, count: columns)
                    : ChromaLayout.deinterleave(v, first: outV, second: outU, count: columns)
            default:
                if source.uOffset == target.uOffset {
                    min(outU, outV).update(from: min(u, v), count: columns * 2)
                } else {
                    // NV12 ⇄ NV21: the same bytes with each pair swapped.
                    for index in 0..<columns {
                        outU[index * 2] = u[index * 2]
                        outV[index * 2] = v[index * 2]
                    }
                }
            }
        }
    }

    private func swapRedAndBlue(origin: (x: Int, y: Int), into destination: PixelBuffer) {
        let output = destination.planes[0]
        for row in 0..<destination.height {
            let source = UnsafePointer(planes[0].row(origin.y + row) + origin.x * 4), target = output.row(row)
            for x in 0..<destination.width {
                target[4 * x] = source[4 * x + 2]
                target[4 * x + 1] = source[4 * x + 1]
                target[4 * x + 2] = source[4 * x]
                target[4 * x + 3] = source[4 * x + 3]
            }
        }
    }
}
