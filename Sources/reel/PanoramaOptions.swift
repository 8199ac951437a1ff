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

    @Flag(help: "VR mode: both eyes side by side, corrected for the viewer's lenses (--vr-preset and the --vr- options).")
    var vr = false

    @Option(help: "VR viewer: \(LensDistortion.presets.map(\.name).joined(separator: " or ")) (the first by default); sets the lens and the distance between the lenses.")
    var vrPreset: String = LensDistortion.presets[0].name

    @Option(help: "VR lens: the r² distortion coefficient (the preset's by default).")
    var vrK1: Float?

    @Option(help: "VR lens: the r⁴ distortion coefficient (the preset's by default).")
    var vrK2: Float?

    @Option(help: ArgumentHelp("VR lens: red, green and blue scales of the distortion (chromatic aberration correction; 1:1:1 for none).", valueName: "r:g:b"))
    var vrChroma: String?

    @Option(help: "VR: the distance between the lenses' centres in millimetres (the preset's by default).")
    var vrIpd: Float?

    @Option(help: "VR: the screen's width in millimetres, of which --vr-ipd is a share.")
    var vrScreenWidth: Float = 120

    /// The lens the options describe, and the lenses' separation as a share of the picture.
    func lens() throws -> (distortion: LensDistortion, separation: Float) {
        guard let preset = LensDistortion.presets.first(where: { $0.name == vrPreset }) else {
            throw ValidationError("--vr-preset must be \(LensDistortion.presets.map(\.name).joined(separator: " or "))")
        }
        var lens = preset.lens
        if let vrK1 { lens.k1 = vrK1 }
        if let vrK2 { lens.k2 = vrK2 }
        for (name, value) in [("--vr-k1", lens.k1), ("--vr-k2", lens.k2)] where !value.isFinite || abs(value) > 10 {
            throw ValidationError("\(name) must be between -10 and 10")
        }
        if let vrChroma {
            let scales = vrChroma.split(separator: ":").compactMap { Float($0) }
            guard scales.count == 3, scales.allSatisfy({ (0.8...1.2).contains($0) }) else {
                throw ValidationError("--vr-chroma takes three scales R:G:B, each 0.8 to 1.2, e.g. 0.995:1:1.005")
            }
            (lens.red, lens.green, lens.blue) = (scales[0], scales[1], scales[2])
        }
        let ipd = vrIpd ?? preset.interLensMillimetres
        guard vrScreenWidth > 0, ipd > 0, ipd <= vrScreenWidth else {
            throw ValidationError("--vr-ipd must be above 0 and at most --vr-screen-width (\(vrScreenWidth) mm)")
        }
        return (lens, ipd / vrScreenWidth)
    }

    @Option(help: "With --headless: the 360° view's size, WxH; snapshots and taps hold the view (--projection flat hands them the source).")
    var viewSize: String = "1280x720"

    /// --view-size as numbers.
    var parsedViewSize: (width: Int, height: Int)? {
        let parts = viewSize.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (2...8192).contains(parts[0]), (2...8192).contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }

    func validate() throws {
        try source.validate()
        guard parsedViewSize != nil else { throw ValidationError("--view-size takes WxH, each 2 to 8192, e.g. 1280x720") }
        _ = try lens()
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
        let lens = try lens()
        return PanoramaSettings(view: view, projection: projection, stereo: stereo.flatMap(StereoLayout.init(rawValue:)) ?? metadata?.stereo ?? .mono,
                                isVR: vr, distortion: lens.distortion, lensSeparation: lens.separation)
    }
}
