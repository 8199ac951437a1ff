import Foundation

/// Small edits to MP4 files made by ffmpeg, for fixtures ffmpeg 5.1 cannot make itself.
enum MP4Patches {
    /// Writes a 90° rotation into the first track header's display matrix (ISO 14496-12
    /// §8.3.2): `[0 1 0; -1 0 0; 0 0 1]` in 16.16 and 2.30 fixed point.
    static func rotateFirstTrackBy90(_ url: URL) throws {
        try setFirstTrackMatrix(url, [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x4000_0000])
    }

    /// Writes `matrix` (nine 16.16 / 2.30 numbers, row by row) as the first track's display matrix.
    static func setFirstTrackMatrix(_ url: URL, _ matrix: [Int32]) throws {
        var data = try Data(contentsOf: url)
        guard let type = data.range(of: Data("tkhd".utf8)) else { throw TestSetupError("no tkhd in \(url.path)") }
        let version = data[type.upperBound]
        // version/flags, then times, track id, reserved and duration (32 or 64 bit), then
        // reserved, layer, alternate group, volume and reserved.
        let matrixOffset = type.upperBound + 4 + (version == 1 ? 32 : 20) + 16
        for (index, value) in matrix.enumerated() {
            let bytes = withUnsafeBytes(of: value.bigEndian) { Data($0) }
            data.replaceSubrange(matrixOffset + index * 4 ..< matrixOffset + index * 4 + 4, with: bytes)
        }
        try data.write(to: url)
    }

    /// The top-level boxes of an MP4 file: type and byte range.
    static func topLevelBoxes(_ data: Data) -> [(type: String, range: Range<Int>)] {
        var boxes: [(String, Range<Int>)] = []
        var offset = 0
        while offset + 8 <= data.count {
            let size32 = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            var size = size32
            if size32 == 1, offset + 16 <= data.count { size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            if size32 == 0 { size = data.count - offset }
            guard size >= 8, offset + size <= data.count else { break }
            boxes.append((type, offset..<offset + size))
            offset += size
        }
        return boxes
    }
}

extension MP4Patches {
    /// Boxes inside `range` of `data` (a box body): type and byte range (32-bit sizes only).
    static func boxes(_ data: Data, in range: Range<Int>) -> [(type: String, range: Range<Int>)] {
        var boxes: [(String, Range<Int>)] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, offset + size <= range.upperBound else { break }
            boxes.append((String(decoding: data[offset + 4..<offset + 8], as: UTF8.self), offset..<offset + size))
            offset += size
        }
        return boxes
    }

    static func box(_ type: String, _ body: Data) -> Data {
        var box = Data()
        box.append(contentsOf: withUnsafeBytes(of: UInt32(8 + body.count).bigEndian) { Array($0) })
        box.append(Data(type.utf8))
        box.append(body)
        return box
    }

    static func fullBox(_ type: String, _ body: Data) -> Data { box(type, Data([0, 0, 0, 0]) + body) }

    static func int32(_ value: Int32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }

    /// Inserts `insertion` at `offset`, inside the boxes whose ranges are `ancestors` (their
    /// sizes grow). The file's `moov` must follow its `mdat` (ffmpeg's default), so that
    /// no chunk offset moves.
    static func insert(_ insertion: Data, at offset: Int, growing ancestors: [Range<Int>], in data: inout Data) {
        for ancestor in ancestors {
            let size = data[ancestor.lowerBound..<ancestor.lowerBound + 4].reduce(0) { $0 << 8 | Int($1) } + insertion.count
            data.replaceSubrange(ancestor.lowerBound..<ancestor.lowerBound + 4, with: withUnsafeBytes(of: UInt32(size).bigEndian) { Data($0) })
        }
        data.insert(contentsOf: insertion, at: offset)
    }

    /// The video `trak` of `moov` and the path of boxes from `moov` down to it.
    static func videoTrack(_ data: Data) throws -> (moov: Range<Int>, trak: Range<Int>) {
        guard let moov = topLevelBoxes(data).first(where: { $0.type == "moov" })?.range else { throw TestSetupError("no moov") }
        guard topLevelBoxes(data).firstIndex(where: { $0.type == "mdat" })! < topLevelBoxes(data).firstIndex(where: { $0.type == "moov" })! else {
            throw TestSetupError("moov before mdat")
        }
        for trak in boxes(data, in: moov.lowerBound + 8..<moov.upperBound) where trak.type == "trak" {
            if data[trak.range].range(of: Data("vide".utf8)) != nil { return (moov, trak.range) }
        }
        throw TestSetupError("no video track")
    }

    /// Spherical Video V2's `equi` box: the crop of an equirectangular picture, 0.32 fixed point.
    static func equi(top: UInt32 = 0, bottom: UInt32 = 0, left: UInt32 = 0, right: UInt32 = 0) -> Data {
        fullBox("equi", [top, bottom, left, right].reduce(Data()) { $0 + int32(Int32(bitPattern: $1)) })
    }

    /// Spherical Video V2's `cbmp` box: a cubemap's layout and face padding.
    static func cbmp(layout: UInt32, padding: UInt32) -> Data {
        fullBox("cbmp", int32(Int32(bitPattern: layout)) + int32(Int32(bitPattern: padding)))
    }

    /// Spherical Video V2: `st3d` and `sv3d/{svhd, proj/{prhd, PROJECTION}}` at the end of
    /// the video sample entry; PROJECTION is a full-sphere `equi` unless given.
    static func addSphericalV2(_ url: URL, stereoMode: UInt8, yaw: Double, pitch: Double, roll: Double, projection: Data = equi()) throws {
        var data = try Data(contentsOf: url)
        let (moov, trak) = try videoTrack(data)
        var path = [moov, trak]
        var current = trak
        for type in ["mdia", "minf", "stbl", "stsd"] {
            let skip = 8
            guard let child = boxes(data, in: current.lowerBound + skip..<current.upperBound).first(where: { $0.type == type }) else {
                throw TestSetupError("no \(type)")
            }
            current = child.range
            path.append(current)
        }
        guard let entry = boxes(data, in: current.lowerBound + 16..<current.upperBound).first else { throw TestSetupError("no sample entry") }
        path.append(entry.range)
        func fixed(_ degrees: Double) -> Data { int32(Int32((degrees * 65536).rounded())) }
        let spherical = fullBox("st3d", Data([stereoMode]))
            + box("sv3d", fullBox("svhd", Data("Reel test\0".utf8))
                  + box("proj", fullBox("prhd", fixed(yaw) + fixed(pitch) + fixed(roll)) + projection))
        insert(spherical, at: entry.range.upperBound, growing: path, in: &data)
        try data.write(to: url)
    }

    /// Spherical Video V1: the XML in a `uuid` box at the end of the video track.
    static func addSphericalV1(_ url: URL, xml: String) throws {
        var data = try Data(contentsOf: url)
        let (moov, trak) = try videoTrack(data)
        let uuid = Data([0xFF, 0xCC, 0x82, 0x63, 0xF8, 0x55, 0x4A, 0x93, 0x88, 0x14, 0x58, 0x7A, 0x02, 0x52, 0x1F, 0xDD])
        insert(box("uuid", uuid + Data(xml.utf8)), at: trak.upperBound, growing: [moov, trak], in: &data)
        try data.write(to: url)
    }
}
