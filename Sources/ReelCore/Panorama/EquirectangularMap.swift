#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// For every pixel of a flat view, where to read it in an equirectangular source: the
/// per-pixel source map, computed once per view and source size and reused until either
/// changes.
///
/// The arithmetic is ffmpeg's v360 filter's (`flat_to_xyz`, quaternion rotation in yaw,
/// pitch, roll order, `xyz_to_equirect`, its edge reflections and kernels), in the same
/// single-precision order with the same libm, so that the same view gives the same source
/// pixels as `v360=input=e:output=flat`.
public struct EquirectangularMap: Sendable {
    public let view: PanoramaView
    public let interpolation: PanoramaInterpolation
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let width: Int
    public let height: Int
    /// Per output pixel, `taps` source columns and rows.
    let columns: [Int16]
    let rows: [Int16]
    /// Per output pixel, `taps` weights in 1/16384 (bilinear only).
    let weights: [Int16]
    let taps: Int

    /// Largest source or output side: v360 keeps coordinates in 16 bits, and so do we.
    public static let maxDimension = 16_384

    public init(view: PanoramaView, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int,
                interpolation: PanoramaInterpolation = .bilinear) throws {
        for side in [sourceWidth, sourceHeight, width, height] where side <= 0 || side > Self.maxDimension {
            throw PanoramaError.invalidSize(side)
        }
        guard view.horizontalFOV > 0, view.horizontalFOV < 180, view.verticalFOV > 0, view.verticalFOV < 180 else {
            throw PanoramaError.invalidFieldOfView(horizontal: view.horizontalFOV, vertical: view.verticalFOV)
        }
        self.view = view
        self.interpolation = interpolation
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        taps = interpolation == .nearest ? 1 : 4
        let count = width * height * taps
        var columns = [Int16](repeating: 0, count: count), rows = [Int16](repeating: 0, count: count)
        var weights = [Int16](repeating: 0, count: interpolation == .nearest ? 0 : count)
        let geometry = Geometry(view: view)
        let taps = self.taps
        columns.withUnsafeMutableBufferPointer { columns in
            rows.withUnsafeMutableBufferPointer { rows in
                weights.withUnsafeMutableBufferPointer { weights in
                    for y in 0..<height {
                        for x in 0..<width {
                            let (ui, vi, du, dv) = geometry.sourcePosition(x: x, y: y, width: width, height: height,
                                                                           sourceWidth: sourceWidth, sourceHeight: sourceHeight)
                            let base = (y * width + x) * taps
                            if interpolation == .nearest {
                                // v360's nearest kernel: the cell of its 4×4 window lrintf rounds to.
                                let column = ui + Int(lrintf(du)), row = vi + Int(lrintf(dv))
                                columns[base] = Int16(Geometry.reflectX(column, row, sourceWidth, sourceHeight))
                                rows[base] = Int16(Geometry.reflectY(row, sourceHeight))
                            } else {
                                for i in 0..<2 {
                                    for j in 0..<2 {
                                        columns[base + i * 2 + j] = Int16(Geometry.reflectX(ui + j, vi + i, sourceWidth, sourceHeight))
                                        rows[base + i * 2 + j] = Int16(Geometry.reflectY(vi + i, sourceHeight))
                                    }
                                }
                                weights[base] = Int16(lrintf((1 - du) * (1 - dv) * 16385))
                                weights[base + 1] = Int16(lrintf(du * (1 - dv) * 16385))
                                weights[base + 2] = Int16(lrintf((1 - du) * dv * 16385))
                                weights[base + 3] = Int16(lrintf(du * dv * 16385))
                            }
                        }
                    }
                }
            }
        }
        self.columns = columns
        self.rows = rows
        self.weights = weights
    }

    /// v360's geometry for one view.
    struct Geometry {
        /// Rotation quaternion and its conjugate.
        let rotation: (SIMD4<Float>, SIMD4<Float>)
        let flatRange: (Float, Float)
        let equirectRange: (Float, Float)

        init(view: PanoramaView) {
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

        /// Where output pixel (x, y) looks in the source: the cell (column, row) and the
        /// position inside it.
        @inline(__always)
        func sourcePosition(x: Int, y: Int, width: Int, height: Int, sourceWidth: Int, sourceHeight: Int)
            -> (column: Int, row: Int, du: Float, dv: Float) {
            // flat_to_xyz
            let lx = flatRange.0 * ((2 * Float(x) + 1) / Float(width) - 1)
            let ly = flatRange.1 * ((2 * Float(y) + 1) / Float(height) - 1)
            var vector = Self.normalized(SIMD3<Float>(lx, ly, 1))
            // rotate
            let temp = Self.multiply(rotation.0, SIMD4<Float>(0, vector.x, vector.y, vector.z))
            let rotated = Self.multiply(temp, rotation.1)
            vector = Self.normalized(SIMD3<Float>(rotated[1], rotated[2], rotated[3]))
            // xyz_to_equirect
            let phi = atan2f(vector.x, vector.z) / equirectRange.0
            let theta = asinf(vector.y) / equirectRange.1
            let uf = (0.5 * phi + 0.5) * (Float(sourceWidth) - 1)
            let vf = (0.5 * theta + 0.5) * (Float(sourceHeight) - 1)
            let ui = floorf(uf), vi = floorf(vf)
            return (Int(ui), Int(vi), uf - ui, vf - vi)
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
public enum PanoramaError: Error, Equatable, CustomStringConvertible {
    case invalidSize(Int)
    case invalidFieldOfView(horizontal: Float, vertical: Float)

    public var description: String {
        switch self {
        case .invalidSize(let side): "invalid picture side \(side) (1 to \(EquirectangularMap.maxDimension))"
        case .invalidFieldOfView(let horizontal, let vertical): "invalid field of view \(horizontal)°×\(vertical)° (each between 0 and 180)"
        }
    }
}
