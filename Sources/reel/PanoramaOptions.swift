import ArgumentParser
import Reel

/// How to show a 360° video: detected from the file's spherical metadata, or as asked.
struct PanoramaOptions: ParsableArguments {
    @OptionGroup var source: ProjectionOptions

    @Option(help: "Stereo layout of the source: tb (left eye on top), lr or mono; by default from the metadata.")
    var stereo: String?

    @Option(parsing: .unconditional, help: "Initial view, degrees (> 0 looks right); by default the metadata's pose.")
    var yaw: Float?

    @Option(parsing: .unconditional, help: "Initial view, degrees (> 0 looks up).")
    var pitch: Float?

    @Option(parsing: .unconditional, help: "Initial view, degrees (> 0 turns clockwise).")
    var roll: Float?

    @Option(help: "Horizontal field of view, degrees (30 to 120).")
    var fov: Float = 90

    @Flag(help: "VR mode: both eyes side by side, corrected for a Cardboard-style lens.")
    var vr = false

    func validate() throws {
        try source.validate()
        if let stereo, StereoLayout(rawValue: stereo) == nil { throw ValidationError("--stereo must be tb, lr or mono") }
        guard (30...120).contains(fov) else { throw ValidationError("--fov must be between 30 and 120") }
        if let pitch, !(-90...90).contains(pitch) { throw ValidationError("--pitch must be between -90 and 90") }
    }

    /// The 360° settings for `input`, or nil to show it flat.
    func settings(for input: String) throws -> PanoramaSettings? {
        guard !source.isFlat else { return nil }
        let named = try source.named()
        let metadata = named == nil || stereo == nil || yaw == nil ? SphericalMetadata.read(path: input) : nil
        guard let projection = named ?? metadata?.panoramaProjection else { return nil }
        let pose = metadata?.pose
        let view = PanoramaView(yaw: yaw ?? pose?.yaw ?? 0, pitch: pitch ?? pose?.pitch ?? 0, roll: roll ?? pose?.roll ?? 0, horizontalFOV: fov)
        return PanoramaSettings(view: view, projection: projection, stereo: stereo.flatMap(StereoLayout.init(rawValue:)) ?? metadata?.stereo ?? .mono,
                                isVR: vr)
    }
}
