import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a panorama view shows and how.
public struct PanoramaSettings: Sendable, Hashable {
    /// Where the viewer looks.
    public var view: PanoramaView
    /// How the source (each eye's part of it) covers the sphere.
    public var projection: PanoramaProjection
    /// Which part of the source one eye sees.
    public var stereo: StereoLayout
    /// Two eyes side by side, warped for a VR viewer's lenses.
    public var isVR: Bool
    /// The lenses a VR view is warped for.
    public var distortion: LensDistortion
    /// The distance between the two lenses' centres as a share of a VR picture's width: a
    /// viewer's inter-lens distance over its screen's width. 0.5 (the default) puts each
    /// lens in the middle of its eye's half.
    public var lensSeparation: Float
    /// How output pixels are sampled.
    public var interpolation: PanoramaInterpolation

    /// Settings; a mono, flat, bilinear view of an equirectangular source straight ahead by default.
    public init(view: PanoramaView = PanoramaView(), projection: PanoramaProjection = .equirectangular, stereo: StereoLayout = .mono,
                isVR: Bool = false, distortion: LensDistortion = .cardboard, lensSeparation: Float = 0.5,
                interpolation: PanoramaInterpolation = .bilinear) {
        self.view = view
        self.projection = projection
        self.stereo = stereo
        self.isVR = isVR
        self.distortion = distortion
        self.lensSeparation = lensSeparation
        self.interpolation = interpolation
    }
}

/// Turns 360° I420 frames of any ``PanoramaProjection`` into flat BGRA views (or VR pairs of eyes), keeping
/// the maps of the current view, and building exact maps in the background while an
/// interactive view moves. Render from one thread at a time.
public final class PanoramaRenderer: @unchecked Sendable {
    private let threads: Int
    private let lock = ConditionLock()
    private var maps: [MapKey: PanoramaMap] = [:]
    private var distortionMaps: [DistortionKey: LensDistortionMap] = [:]
    private var pending: Set<MapKey> = []
    /// The maps the latest picture asked for: a moving view leaves older ones unbuilt.
    private var wanted: Set<MapKey> = []
    private let builder = DispatchQueue(label: "reel.panorama.maps")
    private let pool = PixelBufferPool(capacity: 4)

    /// What a map depends on: the view, the kernel, the source plane and the output size.
    struct MapKey: Hashable {
        var view: PanoramaView
        var projection: PanoramaProjection
        var interpolation: PanoramaInterpolation
        var sourceWidth: Int, sourceHeight: Int, sourceStride: Int
        var width: Int, height: Int
    }

    struct DistortionKey: Hashable {
        var width: Int, height: Int
        var distortion: LensDistortion
        var lensCentre: Float
    }

    /// Whether the last ``render(_:settings:width:height:interactive:)`` drew with
    /// approximate maps (draw again once ``isSettled``).
    public private(set) var lastRenderWasApproximate = false

    /// A renderer that builds maps and draws on `threads` threads.
    public init(threads: Int = 2) {
        self.threads = max(1, threads)
    }

    /// Renders `source` (I420; a stereo source holds both eyes) as a `width`×`height` BGRA
    /// picture. With `interactive`, a view whose exact maps are not ready yet is drawn
    /// from quickly made approximate maps while the exact ones are built in the
    /// background (the next call uses them).
    public func render(_ source: PixelBuffer, settings: PanoramaSettings, width: Int, height: Int,
                       interactive: Bool = false) throws -> PixelBuffer {
        guard source.format == .i420 else { throw PixelConversionError.unsupportedConversion(from: source.format, to: .i420) }
        lastRenderWasApproximate = false
        lock.withLock { wanted.removeAll() }
        let output = try pool.makeBuffer(format: .bgra, width: width, height: height)
        if settings.isVR {
            let eyeWidth = width / 2
            // The left lens sits left of the picture's middle by half the separation, the right one right of it.
            let lensCentres = [1 - settings.lensSeparation, settings.lensSeparation]
            let distortion = try distortionMap(width: eyeWidth, height: height, distortion: settings.distortion, lensCentre: lensCentres[0])
            // The eye's picture reaches as far as the lens warp needs.
            var eyeView = settings.view
            let halfWidth = tanf(settings.view.horizontalFOV * .pi / 360) * distortion.reach
            eyeView.horizontalFOV = min(atanf(halfWidth) * 360 / .pi, 179)
            eyeView = eyeView.squarePixels(width: eyeWidth, height: height)
            var picture: PixelBuffer?
            for (index, eye) in [Eye.left, .right].enumerated() {
                if picture == nil || settings.stereo != .mono {
                    picture = try project(source, eye: eye, settings: settings, view: eyeView, width: eyeWidth, height: height,
                                          interactive: interactive)
                }
                let eyeMap = index == 0 ? distortion
                    : try distortionMap(width: eyeWidth, height: height, distortion: settings.distortion, lensCentre: lensCentres[1])
                eyeMap.apply(picture!.planes[0], into: output.planes[0], atColumn: index * eyeWidth, redFirst: false)
            }
            if width % 2 == 1 { for row in 0..<height { (output.planes[0].row(row) + (width - 1) * 4).update(repeating: 0, count: 4) } }
        } else {
            try projectYUV(source, eye: .left, settings: settings, view: settings.view, width: width, height: height,
                           interactive: interactive).convert(into: output)
        }
        return output
    }

    /// The flat view of `source` (I420) as I420, for encoding: no colour conversion.
    public func renderFlat(_ source: PixelBuffer, settings: PanoramaSettings, width: Int, height: Int) throws -> PixelBuffer {
        guard source.format == .i420 else { throw PixelConversionError.unsupportedConversion(from: source.format, to: .i420) }
        return try projectYUV(source, eye: .left, settings: settings, view: settings.view, width: width, height: height, interactive: false)
    }

    /// One eye's flat view, BGRA.
    private func project(_ source: PixelBuffer, eye: Eye, settings: PanoramaSettings, view: PanoramaView,
                         width: Int, height: Int, interactive: Bool) throws -> PixelBuffer {
        let flat = try projectYUV(source, eye: eye, settings: settings, view: view, width: width, height: height, interactive: interactive)
        let bgra = try pool.makeBuffer(format: .bgra, width: width, height: height)
        try flat.convert(into: bgra)
        return bgra
    }

    /// One eye's flat view, I420; `view` may differ from the settings' (a VR eye's is wider).
    private func projectYUV(_ source: PixelBuffer, eye: Eye, settings: PanoramaSettings, view: PanoramaView,
                            width: Int, height: Int, interactive: Bool) throws -> PixelBuffer {
        let region = settings.stereo.region(of: eye, width: source.width, height: source.height)
        let flat = try pool.makeBuffer(format: .i420, width: width, height: height, matrix: source.matrix, range: source.range)
        for plane in 0..<3 {
            // Each plane has its own map, at its own size (4:2:0 chroma is half), as v360 does.
            let scale = plane == 0 ? 1 : 2
            let input = source.planes[plane], output = flat.planes[plane]
            let eyePlane = PixelPlane(baseAddress: input.baseAddress + (region.y / scale) * input.bytesPerRow + region.x / scale,
                                      bytesPerRow: input.bytesPerRow,
                                      rowByteCount: (region.width + scale - 1) / scale, rowCount: (region.height + scale - 1) / scale)
            let key = MapKey(view: view, projection: settings.projection, interpolation: settings.interpolation,
                             sourceWidth: eyePlane.rowByteCount, sourceHeight: eyePlane.rowCount,
                             sourceStride: eyePlane.bytesPerRow, width: output.rowByteCount, height: output.rowCount)
            try map(for: key, interactive: interactive).remap(eyePlane, into: output, threads: threads)
        }
        return flat
    }

    /// The exact map for `key` if there is one; otherwise an interactive one now and the
    /// exact one later (when `interactive`), or the exact one now.
    private func map(for key: MapKey, interactive: Bool) throws -> PanoramaMap {
        if let map = lock.withLock({ maps[key] }) { return map }
        @Sendable func build(_ precision: PanoramaMap.Precision) throws -> PanoramaMap {
            try PanoramaMap(view: key.view, projection: key.projection, sourceWidth: key.sourceWidth, sourceHeight: key.sourceHeight,
                                   width: key.width, height: key.height, interpolation: key.interpolation,
                                   sourceStride: key.sourceStride, precision: precision, threads: threads)
        }
        guard interactive else {
            let map = try build(.exact)
            store(map, for: key)
            return map
        }
        let scheduled = lock.withLock { () -> Bool in
            wanted.insert(key)
            return pending.insert(key).inserted
        }
        if scheduled {
            builder.async { [self] in
                // Skipped when the view has moved on meanwhile.
                if lock.withLock({ wanted.contains(key) }), let map = try? build(.exact) { store(map, for: key) }
                _ = lock.withLock { pending.remove(key) }
            }
        }
        lastRenderWasApproximate = true
        return try build(.interactive)
    }

    /// Keeps the maps of the latest views only (a moving view makes many).
    private func store(_ map: PanoramaMap, for key: MapKey) {
        lock.withLock {
            if maps.count >= 12 { maps.removeAll() }
            maps[key] = map
        }
    }

    private func distortionMap(width: Int, height: Int, distortion: LensDistortion, lensCentre: Float) throws -> LensDistortionMap {
        let key = DistortionKey(width: width, height: height, distortion: distortion, lensCentre: lensCentre)
        if let map = lock.withLock({ distortionMaps[key] }) { return map }
        let map = try LensDistortionMap(width: width, height: height, distortion: distortion, lensCentre: lensCentre)
        // The two eyes' maps of the latest size and lens.
        lock.withLock {
            distortionMaps = distortionMaps.filter { $0.key.width == width && $0.key.height == height && $0.key.distortion == distortion }
            distortionMaps[key] = map
        }
        return map
    }

    /// Whether the exact maps for every view asked for so far are built (tests, benchmarks).
    public var isSettled: Bool { lock.withLock { pending.isEmpty } }
}
