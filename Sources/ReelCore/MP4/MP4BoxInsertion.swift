/// Inserts a top-level box into an MP4 file held in memory, after a given box (`ftyp`),
/// moving the chunk offsets (`stco`, `co64`) of every track by the inserted size when
/// the media data comes after the insertion point. This is how VAP's tools add `vapc`.
package enum MP4BoxInsertion {
    package static func insert(type: String, body: [UInt8], after previous: String = "ftyp", into file: [UInt8]) throws -> [UInt8] {
        precondition(type.utf8.count == 4)
        let source = MP4MemorySource(file)
        let boxes = try source.boxes()
        guard let anchor = boxes.first(where: { $0.type == previous }) else { throw MP4Error.unreadable("no \(previous) box") }
        let insertAt = anchor.end
        let size = UInt64(body.count + 8)
        guard size <= UInt64(UInt32.max) else { throw MP4Error.unreadable("a box of \(size) bytes") }
        var output = file
        // Chunk offsets at or after the insertion point move.
        for moov in boxes where moov.type == "moov" {
            for trak in try source.children(of: moov) where trak.type == "trak" {
                for mdia in try source.children(of: trak) where mdia.type == "mdia" {
                    for minf in try source.children(of: mdia) where minf.type == "minf" {
                        for stbl in try source.children(of: minf) where stbl.type == "stbl" {
                            for table in try source.children(of: stbl) where table.type == "stco" || table.type == "co64" {
                                try shiftOffsets(table, by: size, from: insertAt, in: &output)
                            }
                        }
                    }
                }
            }
        }
        let header = withUnsafeBytes(of: UInt32(size).bigEndian) { Array($0) } + Array(type.utf8)
        output.insert(contentsOf: header + body, at: Int(insertAt))
        return output
    }

    private static func shiftOffsets(_ table: MP4Box, by delta: UInt64, from start: UInt64, in file: inout [UInt8]) throws {
        let wide = table.type == "co64"
        let entryBytes = wide ? 8 : 4
        let countAt = Int(table.bodyOffset) + 4
        guard countAt + 4 <= Int(table.end) else { throw MP4Error.truncated(at: table.offset) }
        let count = file[countAt..<countAt + 4].reduce(0) { $0 << 8 | Int($1) }
        guard count * entryBytes <= Int(table.end) - countAt - 4 else { throw MP4Error.invalidSize(type: table.type, at: table.offset, size: table.size) }
        for index in 0..<count {
            let at = countAt + 4 + index * entryBytes
            let offset = file[at..<at + entryBytes].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard offset >= start else { continue }
            let moved = offset + delta
            guard wide || moved <= UInt64(UInt32.max) else { throw MP4Error.unreadable("a chunk offset passes 4 GB; the file needs co64") }
            for byte in 0..<entryBytes { file[at + byte] = UInt8(truncatingIfNeeded: moved >> (8 * UInt64(entryBytes - 1 - byte))) }
        }
    }
}
