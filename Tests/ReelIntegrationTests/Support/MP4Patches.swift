import Foundation

/// Small edits to MP4 files made by ffmpeg, for fixtures ffmpeg 5.1 cannot make itself.
enum MP4Patches {
    /// Writes a 90° rotation into the first track header's display matrix (ISO 14496-12
    /// §8.3.2): `[0 1 0; -1 0 0; 0 0 1]` in 16.16 and 2.30 fixed point.
    static func rotateFirstTrackBy90(_ url: URL) throws {
        var data = try Data(contentsOf: url)
        guard let type = data.range(of: Data("tkhd".utf8)) else { throw TestSetupError("no tkhd in \(url.path)") }
        let version = data[type.upperBound]
        // version/flags, then times, track id, reserved and duration (32 or 64 bit), then
        // reserved, layer, alternate group, volume and reserved.
        let matrixOffset = type.upperBound + 4 + (version == 1 ? 32 : 20) + 16
        let matrix: [Int32] = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x4000_0000]
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
