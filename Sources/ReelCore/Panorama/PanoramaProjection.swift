/// How a 360° (or 180°) source picture covers the sphere. The names, layouts and
/// arithmetic are ffmpeg v360's input formats, so that a view of any of them picks the
/// pixels `v360=input=NAME:output=flat` picks.
public enum PanoramaProjection: Sendable, Hashable {
    /// Longitude across, latitude down (v360's `e`): the common 360° layout.
    case equirectangular
    /// The front half of the sphere, 180° across and down (v360's `hequirect`): VR180.
    case halfEquirectangular
    /// Six cube faces in three columns and two rows (v360's `c3x2`).
    case cubemap3x2(CubemapLayout)
    /// Six cube faces in one row (v360's `c6x1`).
    case cubemap6x1(CubemapLayout)
    /// The equi-angular cubemap YouTube streams (v360's `eac`): 3×2 faces whose pixels are
    /// spread evenly in angle, the lower row turned.
    case equiAngularCubemap
    /// Two fisheye circles side by side, the front lens on the right and the back lens on
    /// the left, as consumer 360° cameras record before stitching (v360's `dfisheye`).
    /// Each lens sees `fieldOfView` degrees (v360's `ih_fov` and `iv_fov`; 180 by default).
    case dualFisheye(fieldOfView: Float)

    /// The names `--projection` takes, v360's where it has one.
    public static let names = ["equirect", "hequirect", "c3x2", "c6x1", "eac", "dfisheye"]

    /// The projection called `name` (one of ``names``, or v360's short `e`, `he`), with a
    /// default layout or field of view; nil for other names.
    public init?(name: String) {
        switch name {
        case "equirect", "e": self = .equirectangular
        case "hequirect", "he": self = .halfEquirectangular
        case "c3x2": self = .cubemap3x2(.standard)
        case "c6x1": self = .cubemap6x1(.standard)
        case "eac": self = .equiAngularCubemap
        case "dfisheye": self = .dualFisheye(fieldOfView: 180)
        default: return nil
        }
    }

    /// The name ``init(name:)`` takes.
    public var name: String {
        switch self {
        case .equirectangular: "equirect"
        case .halfEquirectangular: "hequirect"
        case .cubemap3x2: "c3x2"
        case .cubemap6x1: "c6x1"
        case .equiAngularCubemap: "eac"
        case .dualFisheye: "dfisheye"
        }
    }

    /// Whether a source `width`×`height` is large enough to hold this projection's parts.
    func validate(width: Int, height: Int) throws(PanoramaError) {
        switch self {
        case .equirectangular, .halfEquirectangular:
            return
        case .cubemap3x2(let layout):
            guard width >= 3, height >= 2 else { throw .tooSmallForProjection(name, width: width, height: height) }
            try layout.validate(faceWidth: width / 3, faceHeight: height / 2)
        case .cubemap6x1(let layout):
            guard width >= 6 else { throw .tooSmallForProjection(name, width: width, height: height) }
            try layout.validate(faceWidth: width / 6, faceHeight: height)
        case .equiAngularCubemap:
            guard width >= 3, height >= 2 else { throw .tooSmallForProjection(name, width: width, height: height) }
        case .dualFisheye(let fieldOfView):
            guard width >= 2 else { throw .tooSmallForProjection(name, width: width, height: height) }
            guard fieldOfView > 0, fieldOfView <= 360 else { throw .invalidLensFieldOfView(fieldOfView) }
        }
    }
}

/// Where each cube face sits in a cubemap picture and how it is turned: v360's `in_forder`,
/// `in_frot` and `in_pad`/`fin_pad`.
public struct CubemapLayout: Sendable, Hashable {
    /// For each face position (left to right, top to bottom), the direction it shows:
    /// `r`ight, `l`eft, `u`p, `d`own, `f`ront, `b`ack, each once. v360's default is `rludfb`.
    public let faceOrder: String
    /// For each face position, how many quarter turns (0–3) the face is rotated by.
    public let faceRotations: String
    /// Pixels of padding inside each face's edges (Spherical Video V2's `cbmp` padding).
    public let padding: Int

    /// Faces by position: the direction each shows, and its quarter turns.
    let positionOfDirection: [Int]
    let rotationAtPosition: [Int]

    /// A layout; v360's default (`rludfb`, no rotation, no padding) when nothing is given.
    public init(faceOrder: String = "rludfb", faceRotations: String = "000000", padding: Int = 0) throws(PanoramaError) {
        let letters = Array(faceOrder.lowercased())
        let directions = letters.compactMap { "rludfb".firstIndex(of: $0).map { "rludfb".distance(from: "rludfb".startIndex, to: $0) } }
        guard letters.count == 6, directions.count == 6, Set(directions).count == 6 else { throw .invalidFaceOrder(faceOrder) }
        let rotations = faceRotations.compactMap { $0.wholeNumberValue }
        guard faceRotations.count == 6, rotations.count == 6, rotations.allSatisfy({ (0...3).contains($0) }) else {
            throw .invalidFaceRotations(faceRotations)
        }
        guard padding >= 0 else { throw .invalidPadding(padding) }
        self.faceOrder = String(letters)
        self.faceRotations = faceRotations
        self.padding = padding
        var positionOfDirection = [Int](repeating: 0, count: 6)
        for (position, direction) in directions.enumerated() { positionOfDirection[direction] = position }
        self.positionOfDirection = positionOfDirection
        rotationAtPosition = rotations
    }

    /// v360's default: `rludfb`, no face turned, no padding.
    public static let standard = try! CubemapLayout()

    /// Spherical Video V2's `cbmp` layout 0 (YouTube's 3×2 cubemap): right, left, up over
    /// down, front, back; the side faces upright, the up face's top toward the front and
    /// the down face's top toward the back, which in v360's frame is both turned half round.
    public static func sphericalVideoV2(padding: Int) throws(PanoramaError) -> CubemapLayout {
        try CubemapLayout(faceOrder: "rludfb", faceRotations: "002200", padding: padding)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.faceOrder == b.faceOrder && a.faceRotations == b.faceRotations && a.padding == b.padding
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(faceOrder)
        hasher.combine(faceRotations)
        hasher.combine(padding)
    }

    func validate(faceWidth: Int, faceHeight: Int) throws(PanoramaError) {
        guard 2 * padding < min(faceWidth, faceHeight) else { throw .invalidPadding(padding) }
    }
}
