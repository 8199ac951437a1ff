import Dispatch

/// ``CoarseGrid`` for the projections other than equirectangular: source positions
/// computed exactly every `step` output pixels and interpolated in between, but only in
/// cells whose corners fall in one region (one cube face, one fisheye lens) and whose
/// centre lands where the interpolation says; elsewhere (a face's edge, the seam behind a
/// VR180 view) pixels are computed exactly.
struct ProjectionGrid: Sendable {
    let step: Int
    private let columns: Int
    private let rows: Int
    private let width: Int
    private let height: Int
    private let points: [ProjectionSampler.Location]
    /// Per cell (`columns − 1` across): whether its pixels may be interpolated.
    private let smooth: [Bool]

    /// How far (in source pixels) a cell's centre may be from the interpolated position.
    static let tolerance: Float = 0.5

    init(geometry: PanoramaMap.Geometry, sampler: ProjectionSampler, step: Int, threads: Int) {
        self.step = step
        width = Int(geometry.width)
        height = Int(geometry.height)
        let columns = max(2, (width - 1 + step - 1) / step + 1), rows = max(2, (height - 1 + step - 1) / step + 1)
        self.columns = columns
        self.rows = rows
        let width = width, height = height
        var points = [ProjectionSampler.Location](repeating: .init(u: 0, v: 0, region: 0), count: columns * rows)
        var smooth = [Bool](repeating: false, count: (columns - 1) * (rows - 1))
        let jobs = PanoramaMap.chunks(rows: rows * step, threads: threads)
        points.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedPointer(buffer.baseAddress!)
            forEachChunk(jobs, threads: threads) { job in
                for row in chunkRange(job, of: jobs, count: rows) {
                    for column in 0..<columns {
                        shared[row * columns + column] = sampler.locate(geometry.direction(x: min(column * step, width - 1), y: min(row * step, height - 1)))
                    }
                }
            }
        }
        let located = points
        smooth.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedPointer(buffer.baseAddress!)
            let cellRows = rows - 1
            let jobs = PanoramaMap.chunks(rows: cellRows * step, threads: threads)
            forEachChunk(jobs, threads: threads) { job in
                for row in chunkRange(job, of: jobs, count: cellRows) {
                    for column in 0..<(columns - 1) {
                        let a = located[row * columns + column], b = located[row * columns + column + 1]
                        let c = located[(row + 1) * columns + column], d = located[(row + 1) * columns + column + 1]
                        guard a.region == b.region, a.region == c.region, a.region == d.region else { continue }
                        let x0 = min(column * step, width - 1), x1 = min(x0 + step, width - 1)
                        let y0 = min(row * step, height - 1), y1 = min(y0 + step, height - 1)
                        // The exact position at the cell's middle against the interpolated one.
                        let (xm, ym) = ((x0 + x1) / 2, (y0 + y1) / 2)
                        let middle = sampler.locate(geometry.direction(x: xm, y: ym))
                        let tx: Float = x1 > x0 ? Float(xm - x0) / Float(x1 - x0) : 0, ty: Float = y1 > y0 ? Float(ym - y0) / Float(y1 - y0) : 0
                        let (u, v) = Self.interpolate(a, b, c, d, tx, ty)
                        shared[row * (columns - 1) + column] = middle.region == a.region
                            && abs(middle.u - u) <= Self.tolerance && abs(middle.v - v) <= Self.tolerance
                    }
                }
            }
        }
        self.points = points
        self.smooth = smooth
    }

    @inline(__always)
    private static func interpolate(_ a: ProjectionSampler.Location, _ b: ProjectionSampler.Location, _ c: ProjectionSampler.Location,
                                    _ d: ProjectionSampler.Location, _ tx: Float, _ ty: Float) -> (Float, Float) {
        let topU = a.u + (b.u - a.u) * tx, bottomU = c.u + (d.u - c.u) * tx
        let topV = a.v + (b.v - a.v) * tx, bottomV = c.v + (d.v - c.v) * tx
        return (topU + (bottomU - topU) * ty, topV + (bottomV - topV) * ty)
    }

    /// Where a row crosses one cell: positions interpolated along it (the first pixel's,
    /// and the change from one pixel to the next, in one region), or computed exactly.
    enum Span {
        case interpolated(start: ProjectionSampler.Location, stepU: Float, stepV: Float)
        case exact
    }

    /// Calls `body(xs, span)` for the pixels of output row `y` cell by cell, left to right.
    @inline(__always)
    func forEachSpan(inRow y: Int, _ body: (Range<Int>, Span) -> Void) {
        let row = min(y / step, rows - 2)
        let y0 = min(row * step, height - 1), y1 = min(y0 + step, height - 1)
        let ty: Float = y1 > y0 ? Float(y - y0) / Float(y1 - y0) : 0
        for column in 0..<(columns - 1) {
            let x0 = min(column * step, width - 1), x1 = min(x0 + step, width - 1)
            let end = column == columns - 2 ? width : x1
            guard x0 < end else { continue }
            guard smooth[row * (columns - 1) + column] else {
                body(x0..<end, .exact)
                continue
            }
            let a = points[row * columns + column], b = points[row * columns + column + 1]
            let c = points[(row + 1) * columns + column], d = points[(row + 1) * columns + column + 1]
            // This row's ends of the cell, then along the row.
            let startU = a.u + (c.u - a.u) * ty, startV = a.v + (c.v - a.v) * ty
            let stepU = (b.u + (d.u - b.u) * ty - startU) * (x1 > x0 ? 1 / Float(x1 - x0) : 0)
            let stepV = (b.v + (d.v - b.v) * ty - startV) * (x1 > x0 ? 1 / Float(x1 - x0) : 0)
            body(x0..<end, .interpolated(start: .init(u: startU, v: startV, region: a.region), stepU: stepU, stepV: stepV))
        }
    }
}

extension ProjectionGrid.Span {
    /// The interpolated position `t` pixels into the span.
    @inline(__always)
    func location(at t: Int) -> ProjectionSampler.Location? {
        guard case .interpolated(let start, let stepU, let stepV) = self else { return nil }
        return ProjectionSampler.Location(u: start.u + stepU * Float(t), v: start.v + stepV * Float(t), region: start.region)
    }
}

extension ProjectionSampler {
    /// The top-left cell of an interpolated location's 2×2 block and the position inside
    /// it, when the block lies inside its region (nearly always); nil otherwise, for
    /// ``sample(_:)`` to decide.
    @inline(__always)
    func regularCorner(at location: Location) -> (SIMD2<Int32>, Float, Float)? {
        // Inside a region both are ≥ 0, where truncation is floor (and needs no libm call);
        // negative, huge or not a number goes to the exact path.
        guard location.u >= 0, location.v >= 0, location.u < 1e6, location.v < 1e6 else { return nil }
        let (uFloat, u) = PanoramaMap.floored(location.u), (vFloat, v) = PanoramaMap.floored(location.v)
        let ui = Int32(truncatingIfNeeded: u), vi = Int32(truncatingIfNeeded: v), region = location.region
        guard ui >= regionMinU[region], ui &+ 1 < regionEndU[region], vi >= regionMinV[region], vi &+ 1 < regionEndV[region] else { return nil }
        return (SIMD2(ui, vi), location.u - uFloat, location.v - vFloat)
    }

    /// For the projections whose cells v360 clamps into the picture or a lens (all but the
    /// cubemaps, whose cells cross onto other faces): the clamped cells at an interpolated
    /// location outside its region, such as everything behind a VR180 view.
    @inline(__always)
    func clampedSample(at location: Location) -> Sample? {
        if case .cubemap = kind { return nil }
        guard abs(location.u) < 1e6, abs(location.v) < 1e6 else { return nil }
        let (uiF, u) = PanoramaMap.floored(location.u), (viF, v) = PanoramaMap.floored(location.v)
        let ui = Int32(truncatingIfNeeded: u), vi = Int32(truncatingIfNeeded: v), region = location.region
        @inline(__always) func column(_ u: Int32) -> Int32 { min(max(u, regionMinU[region]), regionEndU[region] - 1) }
        @inline(__always) func row(_ v: Int32) -> Int32 { min(max(v, regionMinV[region]), regionEndV[region] - 1) }
        let (u0, u1, v0, v1) = (column(ui), column(ui &+ 1), row(vi), row(vi &+ 1))
        return Sample(du: location.u - uiF, dv: location.v - viF, cells: (SIMD2(u0, v0), SIMD2(u1, v0), SIMD2(u0, v1), SIMD2(u1, v1)))
    }
}
