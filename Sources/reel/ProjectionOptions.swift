import ArgumentParser
import Reel

/// How a 360° source covers the sphere: named on the command line, or read from the file's
/// spherical metadata. Shared by `reel play` and `reel pano render`.
struct ProjectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The source's projection: equirect, hequirect (VR180), c3x2, c6x1 (cubemaps), eac (equi-angular cubemap), dfisheye (two fisheye lenses), or flat.",
        discussion: "By default the file's spherical metadata decides (V1 or V2, including V2's cubemap and VR180 bounds)."))
    var projection: String?

    @Option(help: "Cubemaps: the direction shown at each face position, as v360's in_forder (six of r l u d f b).")
    var cubeFaces: String = "rludfb"

    @Option(help: "Cubemaps: quarter turns of each face position, as v360's in_frot (six digits 0-3).")
    var cubeRotations: String = "000000"

    @Option(help: "Cubemaps: pixels of padding inside each face's edges.")
    var cubePadding: Int = 0

    @Option(help: "Dual fisheye: each lens's field of view, degrees.")
    var lensFov: Float = 180

    func validate() throws {
        if let projection, projection != "flat", PanoramaProjection(name: projection) == nil {
            throw ValidationError("--projection must be one of \((PanoramaProjection.names + ["flat"]).joined(separator: ", "))")
        }
        _ = try named()
    }

    /// The projection named by the options; nil when none is named or it is flat.
    func named() throws -> PanoramaProjection? {
        guard let projection, projection != "flat" else { return nil }
        do {
            switch PanoramaProjection(name: projection) {
            case .cubemap3x2: return .cubemap3x2(try layout())
            case .cubemap6x1: return .cubemap6x1(try layout())
            case .dualFisheye:
                guard lensFov > 0, lensFov <= 360 else { throw ValidationError("--lens-fov must be above 0 and at most 360") }
                return .dualFisheye(fieldOfView: lensFov)
            case let other: return other
            }
        } catch let error as PanoramaError {
            throw ValidationError("\(error)")
        }
    }

    private func layout() throws -> CubemapLayout {
        try CubemapLayout(faceOrder: cubeFaces, faceRotations: cubeRotations, padding: cubePadding)
    }

    /// Whether the user said the source is flat.
    var isFlat: Bool { projection == "flat" }
}
