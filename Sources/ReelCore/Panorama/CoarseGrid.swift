/// Source coordinates computed exactly every `step` output pixels and interpolated in
/// between, for maps that must follow a moving view. Longitude wraps: across the ±180°
/// seam neighbours are unwrapped before interpolating and the result wrapped back.
struct CoarseGrid: Sendable {
    let step: Int
    private let columns: Int
    private let rows: Int
    private let u: [Float]
    private let v: [Float]
    /// v360 puts longitude −180° at column 0 and +180° at column width − 1.
    private let period: Float
    private let width: Int
    private let height: Int

    init(geometry: PanoramaMap.Geometry, step: Int, threads: Int) {
        self.step = step
        width = Int(geometry.width)
        height = Int(geometry.height)
        columns = max(2, (width - 1 + step - 1) / step + 1)
        rows = max(2, (height - 1 + step - 1) / step + 1)
        period = geometry.sourceWidth - 1
        let (columns, rows, width, height) = (columns, rows, width, height)
        var u = [Float](repeating: 0, count: columns * rows), v = u
        u.withUnsafeMutableBufferPointer { uBuffer in
            v.withUnsafeMutableBufferPointer { vBuffer in
                let (u, v) = (SharedPointer(uBuffer.baseAddress!), SharedPointer(vBuffer.baseAddress!))
                let jobs = PanoramaMap.chunks(rows: rows * step, threads: threads)
                forEachChunk(jobs, threads: threads) { job in
                    for row in chunkRange(job, of: jobs, count: rows) {
                        for column in 0..<columns {
                            let (uf, vf) = geometry.sourceCoordinates(x: min(column * step, width - 1), y: min(row * step, height - 1))
                            u[row * columns + column] = uf
                            v[row * columns + column] = vf
                        }
                    }
                }
            }
        }
        self.u = u
        self.v = v
    }

    /// Calls `body(x, uf, vf)` for every pixel of output row `y`, left to right.
    @inline(__always)
    func forEachPixel(inRow y: Int, _ body: (Int, Float, Float) -> Void) {
        let row = min(y / step, rows - 2)
        let y0 = min(row * step, height - 1), y1 = min(y0 + step, height - 1)
        let ty: Float = y1 > y0 ? Float(y - y0) / Float(y1 - y0) : 0
        // The row's value at every grid column, longitude wrapped into [0, period).
        var rowU = [Float](repeating: 0, count: columns), rowV = rowU
        for column in 0..<columns {
            let top = u[row * columns + column], bottom = unwrapped(u[(row + 1) * columns + column], near: top)
            rowU[column] = wrapped(top + (bottom - top) * ty)
            rowV[column] = v[row * columns + column] + (v[(row + 1) * columns + column] - v[row * columns + column]) * ty
        }
        for column in 0..<(columns - 1) {
            let x0 = min(column * step, width - 1), x1 = min(x0 + step, width - 1)
            let end = column == columns - 2 ? width : x1
            guard x0 < end else { continue }
            let u0 = rowU[column], u1 = unwrapped(rowU[column + 1], near: u0)
            let v0 = rowV[column], v1 = rowV[column + 1]
            let scale: Float = x1 > x0 ? 1 / Float(x1 - x0) : 0
            for x in x0..<end {
                let t = Float(x - x0) * scale
                body(x, wrapped(u0 + (u1 - u0) * t), v0 + (v1 - v0) * t)
            }
        }
    }

    /// `value` moved by whole periods to within half a period of `reference`.
    @inline(__always)
    private func unwrapped(_ value: Float, near reference: Float) -> Float {
        value - reference > period / 2 ? value - period : reference - value > period / 2 ? value + period : value
    }

    /// Into [0, period), for values at most a period outside.
    @inline(__always)
    private func wrapped(_ value: Float) -> Float {
        value < 0 ? value + period : value >= period ? value - period : value
    }
}
