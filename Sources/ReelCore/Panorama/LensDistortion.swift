/// A VR viewer's lens, undone in advance: each eye's picture is warped with
/// r' = r (1 + k1 r² + k2 r⁴) (barrel), where r is the distance from the eye's centre in
/// units of half the eye's width, so that the lens's pincushion straightens it again. Its
/// colours spread differently, so each channel is warped with its own scale.
public struct LensDistortion: Sendable, Hashable, Codable {
    /// The r² coefficient.
    public var k1: Float
    /// The r⁴ coefficient.
    public var k2: Float
    /// Scales of red, green and blue against r' (chromatic aberration correction).
    public var red: Float
    /// Green's scale against r'.
    public var green: Float
    /// Blue's scale against r'.
    public var blue: Float

    /// Google Cardboard v1's lens: k1 = 0.441, k2 = 0.156; blue spread 1 % wider than red.
    public static let cardboard = LensDistortion(k1: 0.441, k2: 0.156, red: 0.995, green: 1, blue: 1.005)

    /// Google Cardboard v2's lens (its viewer profile's coefficients): k1 = 0.34, k2 = 0.55;
    /// the same colour spread as ``cardboard``.
    public static let cardboardV2 = LensDistortion(k1: 0.34, k2: 0.55, red: 0.995, green: 1, blue: 1.005)

    /// The viewers Reel knows by name, with their lenses and the distance between the
    /// lenses' centres in millimetres (60 for Cardboard v1, 64 for v2).
    public static let presets: [(name: String, lens: LensDistortion, interLensMillimetres: Float)] = [
        ("cardboard-v1", .cardboard, 60),
        ("cardboard-v2", .cardboardV2, 64),
    ]

    /// A lens; no chromatic correction unless the channel scales are given.
    public init(k1: Float, k2: Float, red: Float = 1, green: Float = 1, blue: Float = 1) {
        self.k1 = k1
        self.k2 = k2
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// r (1 + k1 r² + k2 r⁴).
    public func distortedRadius(_ r: Float) -> Float {
        let r2 = r * r
        return r * (1 + k1 * r2 + k2 * r2 * r2)
    }

    /// Where an eye pixel at `point` (relative to the eye's centre, in half eye widths)
    /// reads the undistorted eye picture, for a channel of scale `scale`.
    public func sourcePoint(_ point: SIMD2<Float>, scale: Float = 1) -> SIMD2<Float> {
        let r2 = point.x * point.x + point.y * point.y
        return point * ((1 + k1 * r2 + k2 * r2 * r2) * scale)
    }

    /// How far (in half eye widths) the undistorted picture must reach so that the eye's
    /// corners still find a source pixel: the largest r' over the eye, all channels.
    /// - Parameters:
    ///   - aspect: the eye's width over its height.
    ///   - lensCentre: where the lens's centre is across the eye, as a share of its width
    ///     (0.5 in the middle): the corner farthest from it decides.
    public func reach(aspect: Float, lensCentre: Float = 0.5) -> Float {
        let across = 2 * max(lensCentre, 1 - lensCentre)
        let corner = (across * across + 1 / (aspect * aspect)).squareRoot()
        return distortedRadius(corner) * max(red, green, blue)
    }
}
