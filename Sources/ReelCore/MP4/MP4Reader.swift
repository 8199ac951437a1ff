/// Reads the tracks of an MP4/MOV file with their sample tables (`stts`, `ctts`, `stsc`,
/// `stsz`/`stz2`, `stco`/`co64`, `stss`): for every sample its offset, size, decode and
/// presentation time and keyframe flag. Counts are checked against the sizes of the boxes
/// that hold them before anything is allocated; unknown boxes are skipped.
public enum MP4Reader {
    /// Most samples a track may have (about a day at 1000 per second).
    public static let maxSamples = 100_000_000

    /// The tracks of the first `moov` in `source`, with their samples; an error when the boxes are damaged or exceed the caps.
    public static func tracks(from source: some MP4ByteSource) throws -> [MP4Track] {
        guard let moov = try source.boxes().first(where: { $0.type == "moov" }) else { throw MP4Error.unreadable("no moov box") }
        return try source.children(of: moov).filter { $0.type == "trak" }.map { try track($0, in: source) }
    }

    static func track(_ trak: MP4Box, in source: some MP4ByteSource) throws -> MP4Track {
        let children = try source.children(of: trak)
        var reader = FieldReader(bytes: try fullBody("tkhd", in: children, source: source, limit: 256))
        let tkhdVersion = try reader.uint8()
        try reader.skip(3 + (tkhdVersion == 1 ? 16 : 8))
        let trackID = try reader.uint32()
        let editStart = try editListStart(children.first { $0.type == "edts" }, in: source)
        guard let mdia = children.first(where: { $0.type == "mdia" }) else { throw MP4Error.unreadable("track \(trackID) has no mdia") }
        let mdiaChildren = try source.children(of: mdia)
        reader = FieldReader(bytes: try fullBody("mdhd", in: mdiaChildren, source: source, limit: 256))
        let mdhdVersion = try reader.uint8()
        try reader.skip(3 + (mdhdVersion == 1 ? 16 : 8))
        let timescale = try reader.uint32()
        guard timescale > 0 else { throw MP4Error.unreadable("track \(trackID): timescale 0") }
        reader = FieldReader(bytes: try fullBody("hdlr", in: mdiaChildren, source: source, limit: 4096))
        try reader.skip(8)
        let handler = String(decoding: try reader.bytes(4), as: UTF8.self)
        guard let minf = mdiaChildren.first(where: { $0.type == "minf" }),
              let stbl = try source.children(of: minf).first(where: { $0.type == "stbl" }) else {
            throw MP4Error.unreadable("track \(trackID) has no sample table")
        }
        let table = try source.children(of: stbl)
        var track = MP4Track(trackID: trackID, handler: handler, timescale: timescale, sampleEntryType: "", editStart: editStart, samples: [])
        if let stsd = table.first(where: { $0.type == "stsd" }), let entry = try source.children(of: stsd, skipping: 8).first {
            track.sampleEntryType = entry.type
            if handler == "vide", let fields = try source.read(at: entry.bodyOffset, count: min(78, Int(entry.bodySize))), fields.count == 78 {
                track.width = Int(fields[24]) << 8 | Int(fields[25])
                track.height = Int(fields[26]) << 8 | Int(fields[27])
                let configuration = try source.children(of: entry, skipping: 78).first { $0.type == "avcC" || $0.type == "hvcC" }
                track.codecConfiguration = try configuration.flatMap { try source.body(of: $0, limit: 1 << 16) }
            }
        }
        track.samples = try samples(of: table, in: source, editStart: editStart, trackID: trackID)
        return track
    }

    private static func samples(of table: [MP4Box], in source: some MP4ByteSource, editStart: Int64, trackID: UInt32) throws -> [MP4Sample] {
        func box(_ type: String) -> MP4Box? { table.first { $0.type == type } }
        // Sizes.
        var sizes: [UInt32]
        if let stsz = box("stsz") {
            var reader = FieldReader(bytes: try body(stsz, in: source))
            try reader.skip(4)
            let uniform = try reader.uint32(), claimed = try reader.uint32()
            if uniform != 0 {
                // Every sample the same size: together they must fit in the file.
                guard UInt64(claimed) * UInt64(uniform) <= source.length else {
                    throw MP4Error.unreadable("track \(trackID): \(claimed) samples of \(uniform) bytes do not fit in the file")
                }
                sizes = [UInt32](repeating: uniform, count: Int(claimed))
            } else {
                sizes = try (0..<(try checkedCount(claimed, entryBytes: 4, in: reader))).map { _ in try reader.uint32() }
            }
        } else if let stz2 = box("stz2") {
            var reader = FieldReader(bytes: try body(stz2, in: source))
            try reader.skip(7)
            let fieldSize = Int(try reader.uint8())
            guard [4, 8, 16].contains(fieldSize) else { throw MP4Error.unreadable("stz2 field size \(fieldSize)") }
            let count = try reader.uint32()
            guard UInt64(count) * UInt64(fieldSize) <= UInt64(reader.remaining) * 8, count <= maxSamples else { throw MP4Error.unreadable("stz2 claims \(count) samples") }
            sizes = []
            sizes.reserveCapacity(Int(count))
            var nibble: UInt8 = 0
            for index in 0..<Int(count) {
                switch fieldSize {
                case 4:
                    if index % 2 == 0 { nibble = try reader.uint8(); sizes.append(UInt32(nibble >> 4)) } else { sizes.append(UInt32(nibble & 0x0F)) }
                case 8: sizes.append(UInt32(try reader.uint8()))
                default: sizes.append(UInt32(try reader.uint16()))
                }
            }
        } else {
            throw MP4Error.unreadable("track \(trackID) has no sample sizes")
        }
        let count = sizes.count
        if let largest = sizes.max(), UInt64(largest) > source.length {
            throw MP4Error.unreadable("track \(trackID): a sample of \(largest) bytes, more than the file holds")
        }
        // Chunk offsets.
        var chunkOffsets: [UInt64]
        if let stco = box("stco") {
            var reader = FieldReader(bytes: try body(stco, in: source))
            try reader.skip(4)
            chunkOffsets = try (0..<(try checkedCount(try reader.uint32(), entryBytes: 4, in: reader))).map { _ in UInt64(try reader.uint32()) }
        } else if let co64 = box("co64") {
            var reader = FieldReader(bytes: try body(co64, in: source))
            try reader.skip(4)
            chunkOffsets = try (0..<(try checkedCount(try reader.uint32(), entryBytes: 8, in: reader))).map { _ in try reader.uint64() }
        } else {
            throw MP4Error.unreadable("track \(trackID) has no chunk offsets")
        }
        // Samples per chunk, in runs.
        guard let stsc = box("stsc") else { throw MP4Error.unreadable("track \(trackID) has no sample-to-chunk table") }
        var reader = FieldReader(bytes: try body(stsc, in: source))
        try reader.skip(4)
        let runs = try (0..<(try checkedCount(try reader.uint32(), entryBytes: 12, in: reader))).map { _ in
            (firstChunk: Int(try reader.uint32()), samplesPerChunk: Int(try reader.uint32()), description: try reader.uint32())
        }
        var offsets = [UInt64]()
        offsets.reserveCapacity(count)
        for (runIndex, run) in runs.enumerated() where offsets.count < count {
            let lastChunk = runIndex + 1 < runs.count ? runs[runIndex + 1].firstChunk - 1 : chunkOffsets.count
            guard run.firstChunk >= 1, lastChunk <= chunkOffsets.count, run.samplesPerChunk >= 0 else { throw MP4Error.unreadable("stsc entry \(runIndex) out of range") }
            for chunk in run.firstChunk...max(run.firstChunk, lastChunk) where chunk <= lastChunk && offsets.count < count {
                var offset = chunkOffsets[chunk - 1]
                // A chunk may claim billions of samples: only as many as are left are taken.
                for _ in 0..<min(run.samplesPerChunk, count - offsets.count) {
                    offsets.append(offset)
                    offset += UInt64(sizes[offsets.count - 1])
                }
            }
        }
        guard offsets.count == count else { throw MP4Error.unreadable("track \(trackID): chunks hold \(offsets.count) of \(count) samples") }
        // Decode times.
        guard let stts = box("stts") else { throw MP4Error.unreadable("track \(trackID) has no time-to-sample table") }
        reader = FieldReader(bytes: try body(stts, in: source))
        try reader.skip(4)
        var decodeTimes = [Int64]()
        decodeTimes.reserveCapacity(count)
        var time: Int64 = 0
        for _ in 0..<(try checkedCount(try reader.uint32(), entryBytes: 8, in: reader)) {
            let repeats = try reader.uint32(), delta = Int64(try reader.uint32())
            for _ in 0..<min(Int(repeats), count - decodeTimes.count) {
                decodeTimes.append(time)
                time += delta
            }
        }
        guard decodeTimes.count == count else { throw MP4Error.unreadable("track \(trackID): stts covers \(decodeTimes.count) of \(count) samples") }
        // Composition offsets.
        var compositionOffsets = [Int64](repeating: 0, count: count)
        if let ctts = box("ctts") {
            reader = FieldReader(bytes: try body(ctts, in: source))
            let version = try reader.uint8()
            try reader.skip(3)
            var index = 0
            for _ in 0..<(try checkedCount(try reader.uint32(), entryBytes: 8, in: reader)) {
                let repeats = try reader.uint32(), raw = try reader.uint32()
                let offset = version == 1 ? Int64(Int32(bitPattern: raw)) : Int64(raw)
                for _ in 0..<min(Int(repeats), count - index) {
                    compositionOffsets[index] = offset
                    index += 1
                }
            }
        }
        // Keyframes: all, unless stss lists them.
        var keyframes: [Bool]
        if let stss = box("stss") {
            keyframes = [Bool](repeating: false, count: count)
            reader = FieldReader(bytes: try body(stss, in: source))
            try reader.skip(4)
            for _ in 0..<(try checkedCount(try reader.uint32(), entryBytes: 4, in: reader)) {
                let number = Int(try reader.uint32())
                if number >= 1 && number <= count { keyframes[number - 1] = true }
            }
        } else {
            keyframes = [Bool](repeating: true, count: count)
        }
        return (0..<count).map { index in
            MP4Sample(offset: offsets[index], size: sizes[index], decodeTime: decodeTimes[index] - editStart,
                      presentationTime: decodeTimes[index] + compositionOffsets[index] - editStart, isKeyframe: keyframes[index])
        }
    }

    /// The first edit's media time (`elst`), 0 when there is none or it is empty (-1).
    private static func editListStart(_ edts: MP4Box?, in source: some MP4ByteSource) throws -> Int64 {
        guard let edts, let elst = try source.children(of: edts).first(where: { $0.type == "elst" }) else { return 0 }
        var reader = FieldReader(bytes: try body(elst, in: source))
        let version = try reader.uint8()
        try reader.skip(3)
        let entries = try reader.uint32()
        for _ in 0..<min(entries, 16) {
            let mediaTime: Int64
            if version == 1 {
                try reader.skip(8)
                mediaTime = Int64(bitPattern: try reader.uint64())
            } else {
                try reader.skip(4)
                mediaTime = Int64(Int32(bitPattern: try reader.uint32()))
            }
            try reader.skip(4)
            if mediaTime >= 0 { return mediaTime }
        }
        return 0
    }

    private static func fullBody(_ type: String, in boxes: [MP4Box], source: some MP4ByteSource, limit: Int) throws -> [UInt8] {
        guard let box = boxes.first(where: { $0.type == type }), let body = try source.body(of: box, limit: limit) else {
            throw MP4Error.unreadable("no readable \(type) box")
        }
        return body
    }

    /// A sample table's body: at most 1 GB (a table that large is not a real file's).
    private static func body(_ box: MP4Box, in source: some MP4ByteSource) throws -> [UInt8] {
        guard let body = try source.body(of: box, limit: 1 << 30) else { throw MP4Error.invalidSize(type: box.type, at: box.offset, size: box.size) }
        return body
    }

    /// `count` entries of `entryBytes` each must fit in what is left of the box.
    private static func checkedCount(_ count: UInt32, entryBytes: Int, in reader: FieldReader) throws -> Int {
        guard Int(count) <= maxSamples, UInt64(count) * UInt64(entryBytes) <= UInt64(reader.remaining) else {
            throw MP4Error.unreadable("a table claims \(count) entries, more than its box holds")
        }
        return Int(count)
    }
}

/// Big-endian fields out of a box body, never past its end.
struct FieldReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else { throw MP4Error.truncated(at: UInt64(position)) }
        position += count
    }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= remaining else { throw MP4Error.truncated(at: UInt64(position)) }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func uint8() throws -> UInt8 { try bytes(1)[0] }
    mutating func uint16() throws -> UInt16 { try bytes(2).reduce(0) { $0 << 8 | UInt16($1) } }
    mutating func uint32() throws -> UInt32 { try bytes(4).reduce(0) { $0 << 8 | UInt32($1) } }
    mutating func uint64() throws -> UInt64 { try bytes(8).reduce(0) { $0 << 8 | UInt64($1) } }
}
