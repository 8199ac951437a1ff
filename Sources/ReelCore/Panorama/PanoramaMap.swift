import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// For every pixel of a flat view, where to read it in a 360° source of any
/// ``PanoramaProjection``: the per-pixel source map, computed once per view and source size
/// and reused until either changes.
///
/// The arithmetic is ffmpeg's v360 filter's (`flat_to_xyz`, quaternion rotation in yaw,
/// pitch, roll order, `xyz_to_equirect` and the other inputs' `xyz_to_*`, their edge
/// reflections, clamps and cube-edge crossings, and its kernels), in the same
/// single-precision order with the same libm, so that the same view gives the same source
/// pixels as `v360=input=NAME:output=flat`.
public struct PanoramaMap: Sendable {
    /// The view the map renders.
    public let view: PanoramaView
    /// How the source covers the sphere.
    public let projection: PanoramaProjection
    /// How each output pixel is sampled.
    public let interpolation: PanoramaInterpolation
    /// The source's width in pixels.
    public let sourceWidth: Int
    /// The equirectangular source's height in pixels.
    public let sourceHeight: Int
    /// The flat output's width in pixels.
    public let width: Int
    /// The flat output's height in pixels.
    public let height: Int
    /// Per output pixel, the source offset (row × ``sourceStride`` + column) of the pixel
    /// (nearest) or of the top-left of the 2×2 block (bilinear); a bilinear block that
    /// wraps round the seam or a pole, crosses a cube face's edge or is clamped at the
    /// picture's edge is −(k + 1): its four offsets are `irregular[4k…]`.
    let offsets: [Int32]
    let irregular: [Int32]
    /// Bytes from one source row to the next that the map's offsets are for.
    public let sourceStride: Int
    /// Per output pixel, `taps` weights in 1/16384 (bilinear only).
    let weights: [Int16]
    let taps: Int

    /// Largest source or output side: v360 keeps coordinates in 16 bits, and so do we.
    public static let maxDimension = 16_384

    /// How the map is computed.
    public enum Precision: Sendable {
        /// Every pixel with v360's arithmetic: the pixels v360 picks.
        case exact
        /// v360's arithmetic on a grid every 8 pixels, interpolated between (within a
        /// fraction of a source pixel except right next to a pole; other projections than
        /// equirectangular interpolate only inside a face or lens and compute their edges
        /// exactly): several times faster, for following a view that is moving.
        case interactive
    }

    /// - Parameters:
    ///   - view: where the view looks, and its fields of view.
    ///   - projection: how the source covers the sphere.
    ///   - sourceWidth: the source picture's width in pixels.
    ///   - sourceHeight: its height.
    ///   - width: the view's width in pixels.
    ///   - height: the view's height.
    ///   - interpolation: nearest or bilinear sampling, as v360's.
    ///   - precision: exact arithmetic, or a coarse grid for a view that is moving.
    ///   - sourceStride: bytes between source rows (the width by default); remapping a
    ///     plane of another stride costs a division per tap.
    ///   - threads: rows of the map computed in parallel.
    public init(view: PanoramaView, projection: PanoramaProjection = .equirectangular, sourceWidth: Int, sourceHeight: Int,
                width: Int, height: Int, interpolation: PanoramaInterpolation = .bilinear, sourceStride: Int? = nil,
                precision: Precision = .exact, threads: Int = 1) throws {
        for side in [sourceWidth, sourceHeight, width, height] where side <= 0 || side > Self.maxDimension {
            throw PanoramaError.invalidSize(side)
        }
        guard view.horizontalFOV > 0, view.horizontalFOV < 180, view.verticalFOV > 0, view.verticalFOV < 180 else {
            throw PanoramaError.invalidFieldOfView(horizontal: view.horizontalFOV, vertical: view.verticalFOV)
        }
        try projection.validate(width: sourceWidth, height: sourceHeight)
        let stride = sourceStride ?? sourceWidth
        guard stride >= sourceWidth, stride * sourceHeight <= Int(Int32.max) else { throw PanoramaError.invalidSize(stride) }
        self.sourceStride = stride
        self.view = view
        self.projection = projection
        self.interpolation = interpolation
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        let taps = interpolation == .nearest ? 1 : 4
        self.taps = taps
        var offsets = [Int32](repeating: 0, count: width * height)
        // Blocks that wrap round a pole or cross a face's edge: each chunk of rows lists
        // its own, numbered afterwards.
        let jobs = Self.chunks(rows: height, threads: threads)
        let blockLists = (0..<jobs).map { _ in IrregularBlocks() }
        // Nearest needs no weights (one unused element keeps the pointer below valid).
        var weights = [Int16](repeating: 0, count: interpolation == .nearest ? 1 : width * height * taps)
        let geometry = Geometry(view: view, width: width, height: height, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        let sampler = projection == .equirectangular ? nil : ProjectionSampler(projection: projection, width: sourceWidth, height: sourceHeight)
        let grid = precision == .interactive && sampler == nil ? CoarseGrid(geometry: geometry, step: 8, threads: threads) : nil
        let projectionGrid = precision == .interactive ? sampler.map { ProjectionGrid(geometry: geometry, sampler: $0, step: 8, threads: threads) } : nil
        offsets.withUnsafeMutableBufferPointer { offsetBuffer in
            weights.withUnsafeMutableBufferPointer { weightBuffer in
                // Each job writes its own rows.
                let offsets = SharedPointer(offsetBuffer.baseAddress!)
                let weights = SharedPointer(weightBuffer.baseAddress!)
                @Sendable @inline(__always) func offset(_ column: Int, _ row: Int) -> Int32 {
                    // Inside the picture (nearly always): no reflection, no division.
                    if row >= 0 && row < sourceHeight && column >= 0 && column < sourceWidth { return Int32(truncatingIfNeeded: row &* stride &+ column) }
                    return Int32(Geometry.reflectY(row, sourceHeight) * stride + Geometry.reflectX(column, row, sourceWidth, sourceHeight))
                }
                @Sendable @inline(__always) func store(x: Int, y: Int, uf: Float, vf: Float, _ blocks: IrregularBlocks) {
                    // v360: integer cell (floorf; both are ≥ 0 but for rounding), position inside it.
                    let (uiFloat, ui) = Self.floored(uf), (viFloat, vi) = Self.floored(vf)
                    let du = uf - uiFloat, dv = vf - viFloat
                    let pixel = y &* width &+ x
                    if taps == 1 {
                        // v360's nearest kernel: the cell of its 4×4 window lrintf rounds to
                        // (a fraction in [0, 1) rounds up only above one half: ties go to even).
                        offsets[pixel] = offset(ui &+ Int(Self.aboveHalf(du)), vi &+ Int(Self.aboveHalf(dv)))
                    } else {
                        if ui >= 0 && ui &+ 1 < sourceWidth && vi >= 0 && vi &+ 1 < sourceHeight {
                            // The usual block: (o, o + 1, o + stride, o + stride + 1), one offset.
                            offsets[pixel] = Int32(truncatingIfNeeded: vi &* stride &+ ui)
                        } else {
                            blocks.append(pixel, offset(ui, vi), offset(ui &+ 1, vi), offset(ui, vi &+ 1), offset(ui &+ 1, vi &+ 1))
                        }
                        storeWeights(pixel, du, dv)
                    }
                }
                @Sendable @inline(__always) func cellOffset(_ cell: SIMD2<Int32>) -> Int32 { cell.y &* Int32(truncatingIfNeeded: stride) &+ cell.x }
                /// A sample of another projection: its cells are given, not derived.
                @Sendable @inline(__always) func store(x: Int, y: Int, _ sample: ProjectionSampler.Sample, _ blocks: IrregularBlocks) {
                    let pixel = y &* width &+ x
                    let (c00, c10, c01, c11) = sample.cells
                    if taps == 1 {
                        // As for equirectangular sources: the cell lrintf rounds to.
                        let right = sample.du > 0.5, below = sample.dv > 0.5
                        offsets[pixel] = cellOffset(below ? (right ? c11 : c01) : (right ? c10 : c00))
                        return
                    }
                    if c10 == c00 &+ SIMD2(1, 0) && c01 == c00 &+ SIMD2(0, 1) && c11 == c00 &+ SIMD2(1, 1) {
                        offsets[pixel] = cellOffset(c00)
                    } else {
                        blocks.append(pixel, cellOffset(c00), cellOffset(c10), cellOffset(c01), cellOffset(c11))
                    }
                    storeWeights(pixel, sample.du, sample.dv)
                }
                /// An interpolated position whose 2×2 block lies inside its face or lens.
                @Sendable @inline(__always) func storeRegular(x: Int, y: Int, _ corner: SIMD2<Int32>, _ du: Float, _ dv: Float) {
                    let pixel = y &* width &+ x
                    if taps == 1 {
                        offsets[pixel] = cellOffset(corner &+ SIMD2(Self.aboveHalf(du), Self.aboveHalf(dv)))
                    } else {
                        offsets[pixel] = cellOffset(corner)
                        storeWeights(pixel, du, dv)
                    }
                }
                @Sendable @inline(__always) func storeWeights(_ pixel: Int, _ du: Float, _ dv: Float) {
                    let base = pixel &* 4
                    weights[base] = Self.roundedWeight((1 - du) * (1 - dv) * 16385)
                    weights[base &+ 1] = Self.roundedWeight(du * (1 - dv) * 16385)
                    weights[base &+ 2] = Self.roundedWeight((1 - du) * dv * 16385)
                    weights[base &+ 3] = Self.roundedWeight(du * dv * 16385)
                }
                @Sendable func fill(rows: Range<Int>, _ blocks: IrregularBlocks) {
                    for y in rows {
                        if let sampler, let projectionGrid {
                            projectionGrid.forEachSpan(inRow: y) { xs, span in
                                // Positions change linearly along a span: when the blocks at
                                // both ends lie inside the region, so do all between.
                                if let first = span.location(at: 0), let last = span.location(at: xs.count - 1),
                                   sampler.regularCorner(at: first) != nil, sampler.regularCorner(at: last) != nil {
                                    for x in xs {
                                        let location = span.location(at: x - xs.lowerBound)!
                                        let (uFloat, u) = Self.floored(location.u), (vFloat, v) = Self.floored(location.v)
                                        storeRegular(x: x, y: y, SIMD2(Int32(truncatingIfNeeded: u), Int32(truncatingIfNeeded: v)),
                                                     location.u - uFloat, location.v - vFloat)
                                    }
                                    return
                                }
                                for x in xs {
                                    let location = span.location(at: x - xs.lowerBound)
                                    if let location, let (corner, du, dv) = sampler.regularCorner(at: location) {
                                        storeRegular(x: x, y: y, corner, du, dv)
                                    } else if let location, let clamped = sampler.clampedSample(at: location) {
                                        store(x: x, y: y, clamped, blocks)
                                    } else {
                                        store(x: x, y: y, sampler.sample(geometry.direction(x: x, y: y)), blocks)
                                    }
                                }
                            }
                        } else if let sampler {
                            for x in 0..<width { store(x: x, y: y, sampler.sample(geometry.direction(x: x, y: y)), blocks) }
                        } else if let grid {
                            grid.forEachPixel(inRow: y) { x, uf, vf in store(x: x, y: y, uf: uf, vf: vf, blocks) }
                        } else {
                            for x in 0..<width {
                                let (uf, vf) = geometry.sourceCoordinates(x: x, y: y)
                                store(x: x, y: y, uf: uf, vf: vf, blocks)
                            }
                        }
                    }
                }
                forEachChunk(jobs, threads: threads) { job in
                    fill(rows: chunkRange(job, of: jobs, count: height), blockLists[job])
                }
            }
        }
        // Chunks hold rows in order, and each its pixels in order: the blocks come out
        // sorted. Each chunk's blocks go to their place in parallel (a view from behind a
        // VR180 picture has nearly every block clamped).
        var firstBlocks = [Int](repeating: 0, count: blockLists.count + 1)
        for (index, list) in blockLists.enumerated() { firstBlocks[index + 1] = firstBlocks[index] + list.entries.count / 5 }
        var irregular = [Int32](repeating: 0, count: firstBlocks[blockLists.count] * 4)
        if !irregular.isEmpty {
            let firstBlocks = firstBlocks
            offsets.withUnsafeMutableBufferPointer { offsetBuffer in
                irregular.withUnsafeMutableBufferPointer { irregularBuffer in
                    let offsets = SharedPointer(offsetBuffer.baseAddress!), irregular = SharedPointer(irregularBuffer.baseAddress!)
                    forEachChunk(blockLists.count, threads: threads) { index in
                        var block = firstBlocks[index]
                        blockLists[index].entries.withUnsafeBufferPointer { entries in
                            for start in Swift.stride(from: 0, to: entries.count, by: 5) {
                                offsets[Int(entries[start])] = -Int32(truncatingIfNeeded: block) - 1
                                for corner in 0..<4 { irregular[block &* 4 &+ corner] = entries[start &+ 1 &+ corner] }
                                block += 1
                            }
                        }
                    }
                }
            }
        }
        self.offsets = offsets
        self.irregular = irregular
        self.weights = weights
    }

    /// How many row chunks a build on `threads` threads cuts `rows` into: one on one
    /// thread, else about 16 rows each (``forEachChunk(_:threads:_:)``).
    static func chunks(rows: Int, threads: Int) -> Int {
        threads <= 1 ? 1 : max(1, min(rows / 16, threads * 32))
    }

    /// `lrintf` for a weight in [0, 16385]: adding and taking away 1.5·2²³ rounds to the
    /// nearest integer, ties to even, as the FPU's default mode does.
    /// Read from the sum's bits rather than converted back: a checked float-to-integer
    /// conversion per weight was a fair share of building a map.
    @inline(__always)
    static func roundedWeight(_ value: Float) -> Int16 {
        Int16(truncatingIfNeeded: bits(value + Self.roundingBias))
    }

    /// A float's bits, signed (shifted right, the sign fills the word).
    @inline(__always)
    static func bits(_ value: Float) -> Int32 { Int32(bitPattern: value.bitPattern) }

    /// 1.5·2²³: a float in [0, 2²²) added to it is rounded to an integer held in the low
    /// bits of the sum (whose bits are this one's plus that integer).
    static let roundingBias: Float = 12_582_912

    /// 1 when a fraction is above one half, else 0, from the sign of the difference: a
    /// comparison made a branch that random fractions mispredict half the time.
    @inline(__always)
    static func aboveHalf(_ fraction: Float) -> Int32 {
        bits(0.5 - fraction) >> 31 & 1
    }

    /// floorf, as a float and as an integer; for the values of a picture (0 ≤ value < 2²²)
    /// without libm or a checked conversion.
    @inline(__always)
    static func floored(_ value: Float) -> (Float, Int) {
        guard value >= 0, value < 4_194_304 else {
            let floored = floorf(value)
            // Not a number or far outside any picture: a cell no picture has (the offsets
            // reflect and clamp it).
            return (floored, floored.isFinite && abs(floored) < 1e9 ? Int(floored) : Int(Int32.min))
        }
        let biased = value + roundingBias
        let nearest = biased - roundingBias
        // −1 when rounding went up (the difference's sign bit), else 0: no branch, which
        // a fraction that is as often above a half as below mispredicts half the time.
        let borrow = bits(value - nearest) >> 31
        let integer = bits(biased) &- bits(roundingBias) &+ borrow
        return (nearest + Float(borrow), Int(integer))
    }

    /// v360's geometry for one view, output size and source size.
    struct Geometry: Sendable {
        /// Rotation quaternion and its conjugate.
        let rotation: (SIMD4<Float>, SIMD4<Float>)
        let flatRange: (Float, Float)
        let equirectRange: (Float, Float)
        let width: Float, height: Float, sourceWidth: Float, sourceHeight: Float

        init(view: PanoramaView, width: Int, height: Int, sourceWidth: Int, sourceHeight: Int) {
            // Promotions as in C: float × double constant is computed in double, then stored.
            flatRange = (tanf(Float(Double(0.5 as Float * view.horizontalFOV) * Double.pi / 180)),
                         tanf(Float(Double(0.5 as Float * view.verticalFOV) * Double.pi / 180)))
            equirectRange = (Float(Double(360 as Float) * Double.pi / 360), Float(Double(180 as Float) * Double.pi / 360))
            let yaw = Float(Double(view.yaw) * Double.pi / 180)
            let pitch = Float(Double(view.pitch) * Double.pi / 180)
            let roll = Float(Double(view.roll) * Double.pi / 180)
            let yawQ = SIMD4<Float>(cosf(yaw * 0.5), 0, sinf(yaw * 0.5), 0)
            let pitchQ = SIMD4<Float>(cosf(pitch * 0.5), sinf(pitch * 0.5), 0, 0)
            let rollQ = SIMD4<Float>(cosf(roll * 0.5), 0, 0, sinf(roll * 0.5))
            let identity = SIMD4<Float>(1, 0, 0, 0)
            let q = Self.multiply(Self.multiply(Self.multiply(identity, yawQ), pitchQ), rollQ)
            rotation = (q, SIMD4<Float>(q[0], -q[1], -q[2], -q[3]))
            self.width = Float(width)
            self.height = Float(height)
            self.sourceWidth = Float(sourceWidth)
            self.sourceHeight = Float(sourceHeight)
        }

        static func multiply(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
            SIMD4<Float>(a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                         a[1] * b[0] + a[0] * b[1] + a[2] * b[3] - a[3] * b[2],
                         a[2] * b[0] + a[0] * b[2] + a[3] * b[1] - a[1] * b[3],
                         a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1])
        }

        static func normalized(_ v: SIMD3<Float>) -> SIMD3<Float> {
            let norm = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z)
            return SIMD3<Float>(v.x / norm, v.y / norm, v.z / norm)
        }

        /// The direction output pixel (x, y) looks in, on the unit sphere, the view's turn applied.
        @inline(__always)
        func direction(x: Int, y: Int) -> SIMD3<Float> {
            // flat_to_xyz
            let lx = flatRange.0 * ((2 * Float(x) + 1) / width - 1)
            let ly = flatRange.1 * ((2 * Float(y) + 1) / height - 1)
            let vector = Self.normalized(SIMD3<Float>(lx, ly, 1))
            // rotate
            let temp = Self.multiply(rotation.0, SIMD4<Float>(0, vector.x, vector.y, vector.z))
            let rotated = Self.multiply(temp, rotation.1)
            return Self.normalized(SIMD3<Float>(rotated[1], rotated[2], rotated[3]))
        }

        /// Where output pixel (x, y) looks in an equirectangular source, in source pixels
        /// (v360's uf, vf).
        @inline(__always)
        func sourceCoordinates(x: Int, y: Int) -> (Float, Float) {
            let vector = direction(x: x, y: y)
            // xyz_to_equirect
            let phi = atan2f(vector.x, vector.z) / equirectRange.0
            let theta = asinf(vector.y) / equirectRange.1
            return ((0.5 * phi + 0.5) * (sourceWidth - 1), (0.5 * theta + 0.5) * (sourceHeight - 1))
        }

        /// Across a pole the picture continues half a turn away.
        static func reflectX(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Int {
            let shifted = y < 0 || y >= height ? x + width / 2 : x
            let remainder = shifted % width
            return remainder < 0 ? remainder + width : remainder
        }

        static func reflectY(_ y: Int, _ height: Int) -> Int {
            let reflected = y < 0 ? -y : y >= height ? 2 * height - 1 - y : y
            return min(max(reflected, 0), height - 1)
        }
    }
}

/// Why a panorama view cannot be made.
public enum PanoramaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A picture side outside 1 to ``PanoramaMap/maxDimension``.
    case invalidSize(Int)
    /// Fields of view outside 0–180° (exclusive).
    case invalidFieldOfView(horizontal: Float, vertical: Float)
    /// A source too small to hold the projection's faces or circles.
    case tooSmallForProjection(String, width: Int, height: Int)
    /// A fisheye lens's field of view outside 0–360° (0 exclusive).
    case invalidLensFieldOfView(Float)
    /// A cube face order that is not six distinct letters of r, l, u, d, f, b.
    case invalidFaceOrder(String)
    /// Cube face rotations that are not six digits 0–3.
    case invalidFaceRotations(String)
    /// Cube face padding below 0 or leaving no face.
    case invalidPadding(Int)
    /// A VR lens centre outside its eye (a share of the eye's width, 0 to 1), or lenses
    /// set further apart than the picture is wide.
    case invalidLensCentre(Float)

    public var description: String {
        switch self {
        case .invalidSize(let side): "invalid picture side \(side) (1 to \(PanoramaMap.maxDimension))"
        case .invalidFieldOfView(let horizontal, let vertical): "invalid field of view \(horizontal)°×\(vertical)° (each between 0 and 180)"
        case .tooSmallForProjection(let name, let width, let height): "a \(width)×\(height) picture is too small for the \(name) projection"
        case .invalidLensFieldOfView(let degrees): "invalid fisheye lens field of view \(degrees)° (above 0, at most 360)"
        case .invalidFaceOrder(let order): "invalid cube face order '\(order)' (six distinct letters of r, l, u, d, f, b, as v360's in_forder)"
        case .invalidFaceRotations(let rotations): "invalid cube face rotations '\(rotations)' (six digits 0–3, as v360's in_frot)"
        case .invalidPadding(let pixels): "invalid cube face padding \(pixels) (0 or more, less than half a face)"
        case .invalidLensCentre(let share): "invalid VR lens centre \(share) (the lenses must sit within their eyes' halves of the picture)"
        }
    }
}

/// A pointer handed to parallel jobs that each write their own part of the memory.
struct SharedPointer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }
}

/// The irregular bilinear blocks one job of a map's build found: pixel and four source
/// offsets, five numbers each. One job appends; the build reads them once the jobs are done.
final class IrregularBlocks: @unchecked Sendable {
    /// One job appends, so the run-time exclusivity check of a class's property (on every
    /// append, a view from behind a VR180 picture appends for nearly every pixel) is not needed.
    @exclusivity(unchecked) private(set) var entries: [Int32] = []

    @inline(__always)
    func append(_ pixel: Int, _ o0: Int32, _ o1: Int32, _ o2: Int32, _ o3: Int32) {
        entries.append(Int32(truncatingIfNeeded: pixel))
        entries.append(o0)
        entries.append(o1)
        entries.append(o2)
        entries.append(o3)
    }
}
