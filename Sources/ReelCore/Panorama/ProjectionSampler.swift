#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a direction on the sphere falls in a source picture of one projection: v360's
/// `xyz_to_*` functions for the inputs other than equirectangular (which the map handles
/// itself, faster), in the same single-precision order, with the same promotions to double
/// where v360's C has them, so that the cells and weights are v360's.
struct ProjectionSampler: Sendable {
    /// Source pixel cells (column, row) around the point: top-left, top-right,
    /// bottom-left, bottom-right (v360's window cells [1][1], [1][2], [2][1], [2][2]), and
    /// the point's position between them.
    struct Sample {
        var du: Float, dv: Float
        var cells: (SIMD2<Int32>, SIMD2<Int32>, SIMD2<Int32>, SIMD2<Int32>)
    }

    /// Where a direction falls, in source pixels of the whole picture, and the region (a
    /// cube face, a fisheye lens) it falls in: for interpolating between nearby directions,
    /// which is only sound within one region.
    struct Location {
        var u: Float, v: Float
        var region: Int
    }

    /// Each region's pixels: columns minU..<endU, rows minV..<endV, by region. A 2×2 block
    /// wholly inside is read as it is; anything else needs ``sample(_:)``.
    private(set) var regionMinU = SIMD8<Int32>.zero, regionMinV = SIMD8<Int32>.zero
    private(set) var regionEndU = SIMD8<Int32>.zero, regionEndV = SIMD8<Int32>.zero

    /// A layout's faces as plain numbers (no reference counting in the per-pixel code): the
    /// position of each direction, and each position's quarter turns.
    struct Faces: Sendable {
        var position: SIMD8<Int32> = .zero
        var rotation: SIMD8<Int32> = .zero

        init(_ layout: CubemapLayout) {
            for index in 0..<6 {
                position[index] = Int32(layout.positionOfDirection[index])
                rotation[index] = Int32(layout.rotationAtPosition[index])
            }
        }

        @inline(__always) func position(of direction: Direction) -> Int { Int(position[direction.rawValue]) }
        @inline(__always) func turns(at position: Int) -> Int { Int(rotation[position]) }
    }

    enum Kind {
        case halfEquirectangular
        case cubemap(columns: Int, rows: Int, Faces)
        case equiAngularCubemap
        case dualFisheye(range: Float)
    }

    let kind: Kind
    private let width: Int, height: Int
    private let widthF: Float, heightF: Float
    /// Cubemaps: a face's width and height as fractions of pixels, and the scale padding leaves.
    private let faceWidth: Float, faceHeight: Float
    private let scaleU: Float, scaleV: Float

    /// v360's cube directions, in its order.
    enum Direction: Int { case right, left, up, down, front, back }

    /// EAC's faces: front, right and left on top; down, back and up below, turned
    /// (v360's `prepare_eac_in`).
    private static let equiAngular = Faces(try! CubemapLayout(faceOrder: "lfrdbu", faceRotations: "000313"))

    /// C's `M_2_PI`, as v360 multiplies by it (in double).
    private static let twoOverPi: Double = 0.63661977236758134308

    /// A sampler for `projection` (not equirectangular) in a `width`×`height` plane.
    init(projection: PanoramaProjection, width: Int, height: Int) {
        self.width = width
        self.height = height
        widthF = Float(width)
        heightF = Float(height)
        var faceWidth: Float = 1, faceHeight: Float = 1, scaleU: Float = 1, scaleV: Float = 1
        switch projection {
        case .equirectangular:
            preconditionFailure("the map samples equirectangular sources itself")
        case .halfEquirectangular:
            kind = .halfEquirectangular
        case .cubemap3x2(let layout), .cubemap6x1(let layout):
            let columns = if case .cubemap3x2 = projection { 3 } else { 6 }
            let rows = columns == 3 ? 2 : 1
            kind = .cubemap(columns: columns, rows: rows, Faces(layout))
            faceWidth = Float(width) / Float(columns)
            faceHeight = Float(height) / Float(rows)
            if layout.padding > 0 {
                // v360's fin_pad: pixels, at every plane's size.
                scaleU = 1 - Float(layout.padding) / faceWidth
                scaleV = 1 - (rows == 1 ? Float(layout.padding) / Float(height) : Float(layout.padding) / faceHeight)
            }
        case .equiAngularCubemap:
            kind = .equiAngularCubemap
        case .dualFisheye(let fieldOfView):
            kind = .dualFisheye(range: fieldOfView / 360)
        }
        self.faceWidth = faceWidth
        self.faceHeight = faceHeight
        self.scaleU = scaleU
        self.scaleV = scaleV
        let whole = SIMD4<Int32>(0, 0, Int32(width), Int32(height))
        let regions: [SIMD4<Int32>]
        switch kind {
        case .halfEquirectangular:
            regions = [whole]
        case .equiAngularCubemap:
            // EAC's cells are clamped to the picture, not to a face; faces are regions all the same.
            regions = Array(repeating: whole, count: 6)
        case .cubemap(let columns, let rows, _):
            regions = (0..<(columns * rows)).map { position in
                let (column, row) = (position % columns, position / columns)
                return SIMD4(Int32(ceilf(faceWidth * Float(column))), Int32(ceilf(faceHeight * Float(row))),
                             Int32(ceilf(faceWidth * Float(column + 1))), Int32(ceilf(faceHeight * Float(row + 1))))
            }
        case .dualFisheye:
            let halfWidth = Float(width) * 0.5, lensColumns = Int32(Int(halfWidth - 1) + 1), shift = Int32(ceilf(halfWidth))
            regions = [SIMD4(0, 0, lensColumns, Int32(height)), SIMD4(shift, 0, shift + lensColumns, Int32(height))]
        }
        for (index, region) in regions.enumerated() {
            (regionMinU[index], regionMinV[index], regionEndU[index], regionEndV[index]) = (region[0], region[1], region[2], region[3])
        }
    }

    /// Where direction `vector` falls (see ``Location``); `sample(_:)` gives v360's cells.
    @inline(__always)
    func locate(_ vector: SIMD3<Float>) -> Location {
        switch kind {
        case .halfEquirectangular:
            let (uf, vf) = halfEquirectangularPosition(vector)
            return Location(u: uf, v: vf, region: 0)
        case .cubemap(let columns, let rows, let faces):
            let face = cubeFacePosition(vector, columns: columns, rows: rows, faces: faces, faceByComparison: true)
            return Location(u: Float(face.shiftU) + face.uf, v: Float(face.shiftV) + face.vf, region: face.position)
        case .equiAngularCubemap:
            let (uf, vf, position) = equiAngularPosition(vector, faceByComparison: true)
            return Location(u: uf, v: vf, region: position)
        case .dualFisheye(let range):
            let (uf, vf, shift) = dualFisheyePosition(vector, range: range)
            return Location(u: Float(shift) + uf, v: vf, region: shift == 0 ? 0 : 1)
        }
    }

    /// The source cells around direction `vector` (unit length, v360's axes: x right,
    /// y down, z forward).
    @inline(__always)
    func sample(_ vector: SIMD3<Float>) -> Sample {
        switch kind {
        case .halfEquirectangular: halfEquirectangular(vector)
        case .cubemap(let columns, let rows, let faces): cubemap(vector, columns: columns, rows: rows, faces: faces)
        case .equiAngularCubemap: equiAngularCubemap(vector)
        case .dualFisheye(let range): dualFisheye(vector, range: range)
        }
    }

    /// v360's `scale`: [-1, 1] onto pixel centres 0…size − 1.
    @inline(__always)
    private static func scale(_ x: Float, _ size: Float) -> Float { (0.5 * x + 0.5) * (size - 1) }

    @inline(__always)
    private static func cell(_ u: Int, _ v: Int) -> SIMD2<Int32> { SIMD2(Int32(truncatingIfNeeded: u), Int32(truncatingIfNeeded: v)) }

    /// The four cells at (ui…ui + 1, vi…vi + 1), each clamped into the picture.
    @inline(__always)
    private func clampedCells(_ ui: Int, _ vi: Int, columns: Range<Int>, shift: Int = 0) -> (SIMD2<Int32>, SIMD2<Int32>, SIMD2<Int32>, SIMD2<Int32>) {
        let u0 = shift + min(max(ui, columns.lowerBound), columns.upperBound - 1), u1 = shift + min(max(ui + 1, columns.lowerBound), columns.upperBound - 1)
        let v0 = min(max(vi, 0), height - 1), v1 = min(max(vi + 1, 0), height - 1)
        return (Self.cell(u0, v0), Self.cell(u1, v0), Self.cell(u0, v1), Self.cell(u1, v1))
    }

    // MARK: Half equirectangular

    @inline(__always)
    private func halfEquirectangularPosition(_ vector: SIMD3<Float>) -> (Float, Float) {
        let phi = Float(Double(atan2f(vector.x, vector.z)) / (Double.pi / 2))
        let theta = Float(Double(asinf(vector.y)) / (Double.pi / 2))
        return (Self.scale(phi, widthF), Self.scale(theta, heightF))
    }

    private func halfEquirectangular(_ vector: SIMD3<Float>) -> Sample {
        let (uf, vf) = halfEquirectangularPosition(vector)
        let ui = Int(floorf(uf)), vi = Int(floorf(vf))
        return Sample(du: uf - Float(ui), dv: vf - Float(vi), cells: clampedCells(ui, vi, columns: 0..<width))
    }

    // MARK: Dual fisheye

    /// The position inside its lens's half, and that half's first column.
    @inline(__always)
    private func dualFisheyePosition(_ vector: SIMD3<Float>, range: Float) -> (Float, Float, Int) {
        let halfWidth = widthF * 0.5
        let h = hypotf(vector.x, vector.y)
        let lh = h > 0 ? h : 1
        let theta = Float(Double(acosf(fabsf(vector.z))) / Double.pi)
        var uf = Self.scale(theta * (vector.x / lh) / range, halfWidth)
        let vf = Self.scale(theta * (vector.y / lh) / range, heightF)
        // The front lens is the right circle; the back one, seen from behind, the left, mirrored.
        let shift: Int
        if vector.z >= 0 {
            shift = Int(ceilf(halfWidth))
        } else {
            shift = 0
            uf = halfWidth - uf - 1
        }
        return (uf, vf, shift)
    }

    private func dualFisheye(_ vector: SIMD3<Float>, range: Float) -> Sample {
        let (uf, vf, shift) = dualFisheyePosition(vector, range: range)
        let ui = Int(floorf(uf)), vi = Int(floorf(vf))
        // v360 clamps to `ew - 1`, a float made int by truncation.
        return Sample(du: uf - Float(ui), dv: vf - Float(vi), cells: clampedCells(ui, vi, columns: 0..<(Int(widthF * 0.5 - 1) + 1), shift: shift))
    }

    // MARK: Cubes

    /// v360's `xyz_to_cube`: the face `vector` hits and the position on it in [-1, 1],
    /// turned as the layout turns that face.
    @inline(__always)
    private static func onCube(_ vector: SIMD3<Float>, faces: Faces, faceByComparison: Bool = false) -> (u: Float, v: Float, direction: Direction) {
        let direction = faceByComparison ? face(byComparing: vector) : face(byAngles: vector)
        var u: Float, v: Float
        switch direction {
        case .right: u = -vector.z / vector.x; v = vector.y / vector.x
        case .left: u = -vector.z / vector.x; v = -vector.y / vector.x
        case .up: u = -vector.x / vector.y; v = -vector.z / vector.y
        case .down: u = vector.x / vector.y; v = -vector.z / vector.y
        case .front: u = vector.x / vector.z; v = vector.y / vector.z
        case .back: u = vector.x / vector.z; v = -vector.y / vector.z
        }
        rotate(&u, &v, quarterTurns: faces.turns(at: faces.position(of: direction)))
        return (u, v, direction)
    }

    /// The face v360 picks, from the angles as it computes them (four libm calls).
    @inline(__always)
    private static func face(byAngles vector: SIMD3<Float>) -> Direction {
        let phi = atan2f(vector.x, vector.z), theta = asinf(vector.y)
        let phiD = Double(phi)
        var direction: Direction
        let phiNorm: Float
        if phiD >= -Double.pi / 4 && phiD < Double.pi / 4 {
            direction = .front
            phiNorm = phi
        } else if phiD >= -(Double.pi / 2 + Double.pi / 4) && phiD < -Double.pi / 4 {
            direction = .left
            phiNorm = Float(phiD + Double.pi / 2)
        } else if phiD >= Double.pi / 4 && phiD < Double.pi / 2 + Double.pi / 4 {
            direction = .right
            phiNorm = Float(phiD - Double.pi / 2)
        } else {
            direction = .back
            phiNorm = Float(phiD + (phi > 0 ? -Double.pi : Double.pi))
        }
        let threshold = atanf(cosf(phiNorm))
        if theta > threshold {
            direction = .down
        } else if theta < -threshold {
            direction = .up
        }
        return direction
    }

    /// The same face by comparing coordinates: θ > atan(cos φ′) is y > max(|x|, |z|) for a
    /// unit vector, and φ's quarter bounds are x = ±z. It differs from v360's only where
    /// rounding puts a direction on an edge one way or the other, so the coarse grid of
    /// interactive maps takes it; exact maps keep v360's angles.
    @inline(__always)
    private static func face(byComparing vector: SIMD3<Float>) -> Direction {
        let (x, y, z) = (vector.x, vector.y, vector.z)
        let horizontal = max(abs(x), abs(z))
        if y > horizontal { return .down }
        if -y > horizontal { return .up }
        if z > 0 && x >= -z && x < z { return .front }
        if x > 0 && x >= z && x > -z { return .right }
        if x < 0 && x < -z && z >= x { return .left }
        return .back
    }

    /// v360's `rotate_cube_face`.
    @inline(__always)
    private static func rotate(_ u: inout Float, _ v: inout Float, quarterTurns: Int) {
        switch quarterTurns {
        case 1: (u, v) = (-v, u)
        case 2: (u, v) = (-u, -v)
        case 3: (u, v) = (v, -u)
        default: break
        }
    }

    /// v360's `rotate_cube_face_inverse`.
    @inline(__always)
    private static func rotateBack(_ u: inout Float, _ v: inout Float, quarterTurns: Int) {
        switch quarterTurns {
        case 1: (u, v) = (v, -u)
        case 2: (u, v) = (-u, -v)
        case 3: (u, v) = (-v, u)
        default: break
        }
    }

    /// v360's `process_cube_coordinates`: a position just off `direction`'s face, on the
    /// face it runs onto; returns that face's position in the layout.
    private static func acrossEdge(_ u: Float, _ v: Float, direction: Direction, faces: Faces) -> (u: Float, v: Float, position: Int) {
        var u = u, v = v
        rotateBack(&u, &v, quarterTurns: faces.turns(at: faces.position(of: direction)))
        var direction = direction
        var newU = u, newV = v
        if (u < -1 || u >= 1) && (v < -1 || v >= 1) {
            // A corner: no face has pixels there.
        } else if u < -1 {
            u += 2
            switch direction {
            case .right: direction = .front; (newU, newV) = (u, v)
            case .left: direction = .back; (newU, newV) = (u, v)
            case .up: direction = .left; (newU, newV) = (v, -u)
            case .down: direction = .left; (newU, newV) = (-v, u)
            case .front: direction = .left; (newU, newV) = (u, v)
            case .back: direction = .right; (newU, newV) = (u, v)
            }
        } else if u >= 1 {
            u -= 2
            switch direction {
            case .right: direction = .back; (newU, newV) = (u, v)
            case .left: direction = .front; (newU, newV) = (u, v)
            case .up: direction = .right; (newU, newV) = (-v, u)
            case .down: direction = .right; (newU, newV) = (v, -u)
            case .front: direction = .right; (newU, newV) = (u, v)
            case .back: direction = .left; (newU, newV) = (u, v)
            }
        } else if v < -1 {
            v += 2
            switch direction {
            case .right: direction = .up; (newU, newV) = (v, -u)
            case .left: direction = .up; (newU, newV) = (-v, u)
            case .up: direction = .back; (newU, newV) = (-u, -v)
            case .down: direction = .front; (newU, newV) = (u, v)
            case .front: direction = .up; (newU, newV) = (u, v)
            case .back: direction = .up; (newU, newV) = (-u, -v)
            }
        } else if v >= 1 {
            v -= 2
            switch direction {
            case .right: direction = .down; (newU, newV) = (-v, u)
            case .left: direction = .down; (newU, newV) = (v, -u)
            case .up: direction = .front; (newU, newV) = (u, v)
            case .down: direction = .back; (newU, newV) = (-u, -v)
            case .front: direction = .down; (newU, newV) = (u, v)
            case .back: direction = .down; (newU, newV) = (-u, -v)
            }
        }
        let position = faces.position(of: direction)
        rotate(&newU, &newV, quarterTurns: faces.turns(at: position))
        return (newU, newV, position)
    }

    /// A cube face hit: the position on it in its own pixels, its size and place.
    private struct FaceHit {
        var uf: Float, vf: Float
        var direction: Direction, position: Int
        var width: Int, height: Int, shiftU: Int, shiftV: Int
    }

    @inline(__always)
    private func cubeFacePosition(_ vector: SIMD3<Float>, columns: Int, rows: Int, faces: Faces, faceByComparison: Bool = false) -> FaceHit {
        var (uf, vf, direction) = Self.onCube(vector, faces: faces, faceByComparison: faceByComparison)
        uf *= scaleU
        vf *= scaleV
        let position = faces.position(of: direction)
        let (faceColumn, faceRow) = (position % columns, position / columns)
        let faceWidthI = Int(ceilf(faceWidth * Float(faceColumn + 1)) - ceilf(faceWidth * Float(faceColumn)))
        let faceHeightI = Int(ceilf(faceHeight * Float(faceRow + 1)) - ceilf(faceHeight * Float(faceRow)))
        uf = 0.5 * Float(faceWidthI) * (uf + 1) - 0.5
        vf = 0.5 * Float(faceHeightI) * (vf + 1) - 0.5
        return FaceHit(uf: uf, vf: vf, direction: direction, position: position, width: faceWidthI, height: faceHeightI,
                       shiftU: Int(ceilf(faceWidth * Float(faceColumn))), shiftV: Int(ceilf(faceHeight * Float(faceRow))))
    }

    /// v360's `xyz_to_cube3x2` and `xyz_to_cube6x1`: cells off the face are looked up on
    /// the face they run onto.
    private func cubemap(_ vector: SIMD3<Float>, columns: Int, rows: Int, faces: Faces) -> Sample {
        let hit = cubeFacePosition(vector, columns: columns, rows: rows, faces: faces)
        let (uf, vf, direction) = (hit.uf, hit.vf, hit.direction)
        let (faceWidthI, faceHeightI, shiftU, shiftV) = (hit.width, hit.height, hit.shiftU, hit.shiftV)
        let ui = Int(floorf(uf)), vi = Int(floorf(vf))

        @inline(__always) func cell(_ u: Int, _ v: Int) -> SIMD2<Int32> {
            if u >= 0 && u < faceWidthI && v >= 0 && v < faceHeightI { return Self.cell(shiftU + u, shiftV + v) }
            let across = Self.acrossEdge((2 * Float(u) / Float(faceWidthI) - 1) / scaleU, (2 * Float(v) / Float(faceHeightI) - 1) / scaleV,
                                         direction: direction, faces: faces)
            let (column, row) = (across.position % columns, across.position / columns)
            let shiftU = Int(ceilf(faceWidth * Float(column))), shiftV = Int(ceilf(faceHeight * Float(row)))
            let width = Int(ceilf(faceWidth * Float(column + 1))) - shiftU, height = Int(ceilf(faceHeight * Float(row + 1))) - shiftV
            let newU = Int((0.5 * Float(width) * (across.u * scaleU + 1)).rounded(.toNearestOrEven))
            let newV = Int((0.5 * Float(height) * (across.v * scaleV + 1)).rounded(.toNearestOrEven))
            return Self.cell(shiftU + min(max(newU, 0), width - 1), shiftV + min(max(newV, 0), height - 1))
        }
        return Sample(du: uf - Float(ui), dv: vf - Float(vi), cells: (cell(ui, vi), cell(ui + 1, vi), cell(ui, vi + 1), cell(ui + 1, vi + 1)))
    }

    /// v360's `xyz_to_eac`: the cube face's position taken through atan, so that equal
    /// angles take equal pixels, with two pixels of padding around the faces.
    private func equiAngularCubemap(_ vector: SIMD3<Float>) -> Sample {
        let (uf, vf, _) = equiAngularPosition(vector)
        let ui = Int(floorf(uf)), vi = Int(floorf(vf))
        return Sample(du: uf - Float(ui), dv: vf - Float(vi), cells: clampedCells(ui, vi, columns: 0..<width))
    }

    /// The position in the picture, and the face's position in the layout.
    @inline(__always)
    private func equiAngularPosition(_ vector: SIMD3<Float>, faceByComparison: Bool = false) -> (Float, Float, Int) {
        let faces = Self.equiAngular
        var (uf, vf, direction) = Self.onCube(vector, faces: faces, faceByComparison: faceByComparison)
        let position = faces.position(of: direction)
        let (faceColumn, faceRow) = (position % 3, position / 3)
        let padU: Float = 2 / widthF, padV: Float = 2 / heightF
        uf = Float(Self.twoOverPi * Double(atanf(uf)) + 0.5)
        vf = Float(Self.twoOverPi * Double(atanf(vf)) + 0.5)
        uf = (uf + Float(faceColumn)) * (1 - 2 * padU) / 3 + padU
        vf = vf * (0.5 - 2 * padV) + padV + 0.5 * Float(faceRow)
        uf *= widthF
        vf *= heightF
        uf -= 0.5
        vf -= 0.5
        return (uf, vf, position)
    }
}
