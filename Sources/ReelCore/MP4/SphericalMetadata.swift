/// How a video maps onto the sphere, from Google's Spherical Video metadata: V2 (`st3d`
/// and `sv3d` boxes in the video sample entry) or V1 (XML in a `uuid` box of the track).
public struct SphericalMetadata: Sendable, Equatable {
    /// How the picture covers the sphere.
    public enum Projection: String, Sendable {
        /// Longitude across, latitude down: the common 360° layout.
        case equirectangular
        /// Six cube faces (Spherical Video V2's `cbmp`, YouTube's 3×2 layout).
        case cubemap
        /// A mesh the file carries (`mshp`), such as a fisheye lens's.
        case mesh
    }

    /// The projection.
    public var projection: Projection
    /// Mono, or how the two eyes are packed.
    public var stereo: StereoLayout
    /// The initial view, degrees.
    public var pose: (yaw: Float, pitch: Float, roll: Float)
    /// Which version of the metadata said so.
    public var version: Int
    /// An equirectangular picture's crop (V2's `equi` box): the share of the whole sphere's
    /// picture cut from each side, in 0.32 fixed point (0 for a full 360°).
    public var bounds: (top: UInt32, bottom: UInt32, left: UInt32, right: UInt32) = (0, 0, 0, 0)
    /// A cubemap's layout (V2's `cbmp`; 0 is the 3×2 grid) and the padding of its faces in pixels.
    public var cubemap: (layout: UInt32, padding: UInt32)?

    public static func == (a: Self, b: Self) -> Bool {
        a.projection == b.projection && a.stereo == b.stereo && a.pose == b.pose && a.version == b.version && a.bounds == b.bounds
            && a.cubemap?.layout == b.cubemap?.layout && a.cubemap?.padding == b.cubemap?.padding
    }

    /// How Reel shows what the metadata describes, or nil where it cannot (a mesh, a cubemap
    /// layout other than 0, an equirectangular crop other than VR180's).
    public var panoramaProjection: PanoramaProjection? {
        switch projection {
        case .equirectangular:
            if bounds == (0, 0, 0, 0) { return .equirectangular }
            // VR180: a quarter of the width cut from each side, nothing from top and bottom.
            if bounds == (0, 0, 1 << 30, 1 << 30) { return .halfEquirectangular }
            return nil
        case .cubemap:
            guard let cubemap, cubemap.layout == 0, let padding = Int(exactly: cubemap.padding),
                  let layout = try? CubemapLayout.sphericalVideoV2(padding: padding) else { return nil }
            return .cubemap3x2(layout)
        case .mesh:
            return nil
        }
    }

    /// Spherical Video V1's `uuid` box type.
    static let v1UUID: [UInt8] = [0xFF, 0xCC, 0x82, 0x63, 0xF8, 0x55, 0x4A, 0x93, 0x88, 0x14, 0x58, 0x7A, 0x02, 0x52, 0x1F, 0xDD]

    /// The metadata of the first video track of an MP4/MOV file, or nil (not an MP4,
    /// damaged, or no spherical metadata).
    public static func read(path: String) -> SphericalMetadata? {
        guard let file = try? MP4FileSource(path: path) else { return nil }
        return try? read(from: file)
    }

    /// The metadata of the first video track in `source`; `nil` when it has none, an
    /// error when the boxes cannot be read.
    public static func read(from source: some MP4ByteSource) throws -> SphericalMetadata? {
        for moov in try source.boxes().filter({ $0.type == "moov" }) {
            for trak in try source.children(of: moov).filter({ $0.type == "trak" }) {
                let children = try source.children(of: trak)
                guard let mdia = children.first(where: { $0.type == "mdia" }), try isVideo(mdia, in: source) else { continue }
                if let v2 = try version2(mdia, in: source) { return v2 }
                if let uuid = children.first(where: { $0.type == "uuid" && $0.extendedType == v1UUID }),
                   let xml = try source.body(of: uuid, limit: 1 << 16) {
                    return version1(xml)
                }
                return nil
            }
        }
        return nil
    }

    private static func isVideo(_ mdia: MP4Box, in source: some MP4ByteSource) throws -> Bool {
        guard let hdlr = try source.children(of: mdia).first(where: { $0.type == "hdlr" }),
              let body = try source.body(of: hdlr, limit: 4096), body.count >= 12 else { return false }
        return Array(body[8..<12]) == Array("vide".utf8)
    }

    /// `mdia/minf/stbl/stsd/<sample entry>/{st3d, sv3d/proj/{prhd, equi}}`.
    private static func version2(_ mdia: MP4Box, in source: some MP4ByteSource) throws -> SphericalMetadata? {
        guard let minf = try source.children(of: mdia).first(where: { $0.type == "minf" }),
              let stbl = try source.children(of: minf).first(where: { $0.type == "stbl" }),
              let stsd = try source.children(of: stbl).first(where: { $0.type == "stsd" }),
              // stsd: version and flags, entry count; a visual sample entry: 78 bytes of fields.
              let entry = try source.children(of: stsd, skipping: 8).first else { return nil }
        let boxes = try source.children(of: entry, skipping: 78)
        guard let sv3d = boxes.first(where: { $0.type == "sv3d" }),
              let proj = try source.children(of: sv3d).first(where: { $0.type == "proj" }) else { return nil }
        let projBoxes = try source.children(of: proj)
        let projection: Projection
        if projBoxes.contains(where: { $0.type == "equi" }) {
            projection = .equirectangular
        } else if projBoxes.contains(where: { $0.type == "cbmp" }) {
            projection = .cubemap
        } else if projBoxes.contains(where: { $0.type == "mshp" }) {
            projection = .mesh
        } else {
            return nil
        }
        func word(_ body: [UInt8], _ at: Int) -> UInt32 {
            UInt32(body[at]) << 24 | UInt32(body[at + 1]) << 16 | UInt32(body[at + 2]) << 8 | UInt32(body[at + 3])
        }
        var bounds: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var cubemap: (UInt32, UInt32)?
        if let equi = projBoxes.first(where: { $0.type == "equi" }), let body = try source.body(of: equi, limit: 64), body.count >= 20 {
            bounds = (word(body, 4), word(body, 8), word(body, 12), word(body, 16))
        }
        if let cbmp = projBoxes.first(where: { $0.type == "cbmp" }), let body = try source.body(of: cbmp, limit: 64), body.count >= 12 {
            cubemap = (word(body, 4), word(body, 8))
        }
        var pose: (Float, Float, Float) = (0, 0, 0)
        if let prhd = projBoxes.first(where: { $0.type == "prhd" }), let body = try source.body(of: prhd, limit: 64), body.count >= 16 {
            // Version and flags, then yaw, pitch, roll in 16.16 fixed-point degrees.
            func fixed(_ at: Int) -> Float { Float(Int32(bitPattern: word(body, at))) / 65536 }
            pose = (fixed(4), fixed(8), fixed(12))
        }
        var stereo = StereoLayout.mono
        if let st3d = boxes.first(where: { $0.type == "st3d" }), let body = try source.body(of: st3d, limit: 64), body.count >= 5 {
            stereo = body[4] == 1 ? .topBottom : body[4] == 2 ? .leftRight : .mono
        }
        return SphericalMetadata(projection: projection, stereo: stereo, pose: pose, version: 2, bounds: bounds, cubemap: cubemap)
    }

    /// The V1 XML: `<GSpherical:Spherical>true`, `ProjectionType`, `StereoMode`, and the
    /// initial view in `InitialViewHeadingDegrees`, `…PitchDegrees`, `…RollDegrees`.
    static func version1(_ xml: [UInt8]) -> SphericalMetadata? {
        func find(_ text: String, from start: Int) -> Range<Int>? {
            let needle = Array(text.utf8)
            guard !needle.isEmpty, xml.count >= needle.count, start <= xml.count - needle.count else { return nil }
            for index in start...(xml.count - needle.count) where xml[index] == needle[0] && Array(xml[index..<index + needle.count]) == needle {
                return index..<index + needle.count
            }
            return nil
        }
        func value(_ tag: String) -> String? {
            guard let open = find("<GSpherical:\(tag)>", from: 0), let close = find("</GSpherical:\(tag)>", from: open.upperBound) else { return nil }
            return String(decoding: xml[open.upperBound..<close.lowerBound], as: UTF8.self).trimmingCharacters()
        }
        guard value("Spherical")?.lowercased() == "true", value("ProjectionType")?.lowercased() == "equirectangular" else { return nil }
        let stereo: StereoLayout = switch value("StereoMode")?.lowercased() {
        case "top-bottom": .topBottom
        case "left-right": .leftRight
        default: .mono
        }
        let pose = (value("InitialViewHeadingDegrees").flatMap(Float.init) ?? 0, value("InitialViewPitchDegrees").flatMap(Float.init) ?? 0,
                    value("InitialViewRollDegrees").flatMap(Float.init) ?? 0)
        return SphericalMetadata(projection: .equirectangular, stereo: stereo, pose: pose, version: 1)
    }
}

private extension String {
    func trimmingCharacters() -> String {
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }
}
