import Foundation
import Reel
import Testing

/// Reel's pure-Swift MP4 reader against ffprobe's packet list (position, size, pts, dts,
/// keyframe flag) on files ffmpeg made.
@Suite struct MP4ReaderTests {
    struct ProbedPacket: Equatable { var stream: Int; var pts: Int64; var dts: Int64; var size: UInt32; var offset: UInt64; var key: Bool }

    static func probe(_ path: String) throws -> [ProbedPacket] {
        let result = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts,dts,size,pos,flags", "-of", "csv=p=0", path])
        return result.stdout.split(separator: "\n").map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return ProbedPacket(stream: Int(f[0])!, pts: Int64(f[1])!, dts: Int64(f[2])!, size: UInt32(f[3])!, offset: UInt64(f[4])!, key: f[5].contains("K"))
        }
    }

    /// (Raw PCM is left out: FFmpeg regroups its one-frame samples into larger packets.)
    @Test(arguments: ["h264-baseline-aac.mp4", "h264-main-bframes-aac.mov", "hevc-aac.mp4", "h264-750x814.mp4", "h264-rotated-90.mp4",
                      "h264-full-range-bt709.mp4"])
    func samplesMatchFFprobesPackets(fixture name: String) throws {
        let fixture = Fixtures.named(name)
        let tracks = try MP4Reader.tracks(from: try MP4FileSource(path: fixture.path))
        let packets = try Self.probe(fixture.path)
        #expect(!tracks.isEmpty)
        for (index, track) in tracks.enumerated() {
            let expected = packets.filter { $0.stream == index }
            let ours = track.samples.map {
                ProbedPacket(stream: index, pts: $0.presentationTime, dts: $0.decodeTime, size: $0.size, offset: $0.offset, key: $0.isKeyframe)
            }
            #expect(ours.count == expected.count, "\(name) track \(index): \(ours.count) samples, ffprobe \(expected.count)")
            let mismatch = Array(zip(ours, expected)).firstIndex { $0.0 != $0.1 }
            #expect(mismatch == nil, "\(name) track \(index) (\(track.sampleEntryType)): sample \(mismatch ?? -1) is \(mismatch.map { ours[$0] } as Any), ffprobe \(mismatch.map { expected[$0] } as Any)")
            if track.handler == "vide" {
                #expect(track.codecConfiguration?.isEmpty == false, "\(name): no avcC/hvcC")
                #expect(track.width != nil && track.height != nil)
            }
        }
    }

    @Test func hostileTablesAreErrorsNotAllocations() throws {
        // A minimal moov whose stsz claims 2³² − 1 samples of 1 GB each.
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + body.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
        }
        let zero4: [UInt8] = [0, 0, 0, 0]
        let tkhd = box("tkhd", zero4 + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 1] + [UInt8](repeating: 0, count: 68))
        let mdhd = box("mdhd", zero4 + [UInt8](repeating: 0, count: 8) + [0, 0, 0x03, 0xE8] + [UInt8](repeating: 0, count: 8))
        let hdlr = box("hdlr", zero4 + zero4 + Array("vide".utf8) + [UInt8](repeating: 0, count: 13))
        let stsz = box("stsz", zero4 + [0x40, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF])
        let stbl = box("stbl", box("stsd", zero4 + zero4) + stsz + box("stco", zero4 + zero4) + box("stsc", zero4 + zero4) + box("stts", zero4 + zero4))
        let moov = box("moov", box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", stbl))))
        #expect(throws: MP4Error.self) { try MP4Reader.tracks(from: MP4MemorySource(moov)) }
        // A table claiming more entries than its box holds.
        let stco = box("stco", zero4 + [0x7F, 0xFF, 0xFF, 0xFF])
        let stbl2 = box("stbl", box("stsd", zero4 + zero4) + box("stsz", zero4 + zero4 + zero4) + stco + box("stsc", zero4 + zero4) + box("stts", zero4 + zero4))
        let moov2 = box("moov", box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", stbl2))))
        #expect(throws: MP4Error.self) { try MP4Reader.tracks(from: MP4MemorySource(moov2)) }
        // Random damage to a real file: errors or tracks, never a crash.
        let real = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.named("h264-baseline-aac.mp4").path)))
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<100 {
            var damaged = real
            for _ in 0..<16 { damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            _ = try? MP4Reader.tracks(from: MP4MemorySource(damaged))
        }
    }
}

extension MP4ReaderTests {
    /// Tencent's VAP animations (including one ending in a size-0 box) read with the same
    /// sample counts and sizes as ffprobe's.
    @Test func vapFixturesRead() throws {
        let directory = try Paths.sharedFixtures("vap")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".mp4") }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let path = directory.appendingPathComponent(file).path
            let tracks = try MP4Reader.tracks(from: try MP4FileSource(path: path))
            let video = try #require(tracks.first { $0.handler == "vide" }, "\(file): no video track")
            let expected = try Self.probe(path).filter { $0.stream == tracks.firstIndex { $0.handler == "vide" }! }
            #expect(video.samples.map(\.size) == expected.map(\.size), "\(file)")
            #expect(video.samples.map(\.offset) == expected.map(\.offset), "\(file)")
        }
    }
}
