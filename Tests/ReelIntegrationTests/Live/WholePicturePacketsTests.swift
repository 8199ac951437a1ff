import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// A live MPEG-TS input's pictures taken a PES packet at a time: the packets against
    /// ffprobe's, a picture readable before the next one is sent, and a sender that splits
    /// its pictures across PES packets.
    @Suite struct WholePicturePacketsTests {
        /// H.264 in MPEG-TS, each PES packet with its length (as `reel encode` sends it).
        static func transportStream(bFrames: Int) throws -> String {
            try Fixtures.made("whole-pes-bf\(bFrames).ts", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=3", "-c:v", "libx264", "-g", "30",
                "-bf", "\(bFrames)", "-pix_fmt", "yuv420p", "-omit_video_pes_length", "0", "-f", "mpegts"])
        }

        struct PacketRow: Equatable, CustomStringConvertible {
            var pts: Int64?
            var dts: Int64?
            var size: Int
            var md5: String
            var isKeyframe: Bool
            var description: String { "pts \(pts.map(String.init) ?? "-") dts \(dts.map(String.init) ?? "-") size \(size) key \(isKeyframe) \(md5.prefix(8))" }
        }

        /// The first video stream's packets as ffprobe reads them (through FFmpeg's parser).
        static func ffprobePackets(_ path: String) throws -> [PacketRow] {
            let result = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_data_hash", "md5",
                                                       "-show_entries", "packet=pts,dts,size,flags,data_hash", "-of", "json", path])
            try #require(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let packets = try #require(json?["packets"] as? [[String: Any]])
            return packets.map { packet in
                PacketRow(pts: (packet["pts"] as? NSNumber)?.int64Value, dts: (packet["dts"] as? NSNumber)?.int64Value,
                          size: Int(packet["size"] as? String ?? "") ?? -1,
                          md5: String((packet["data_hash"] as? String ?? "").dropFirst(4)),
                          isKeyframe: (packet["flags"] as? String ?? "").hasPrefix("K"))
            }
        }

        /// The video packets Reel's demuxer gives with `options` (live ones by default),
        /// until the input ends.
        static func reelPackets(_ url: String, options: DemuxOptions = DemuxOptions(timeout: nil).forLiveInput(),
                                each: (Int) -> Void = { _ in }) throws -> [PacketRow] {
            let demuxer = try Demuxer(url: url, options: options)
            let video = try #require(demuxer.bestStream(of: .video))
            var md5 = FrameMD5()
            var rows: [PacketRow] = []
            while let packet = try demuxer.readPacket() {
                guard packet.streamIndex == video else { continue }
                rows.append(PacketRow(pts: packet.pts, dts: packet.dts, size: packet.data.count, md5: md5.hash(packet.data), isKeyframe: packet.isKeyframe))
                each(rows.count)
            }
            return rows
        }

        /// `file`'s video packets as Reel reads them through a pipe: a live input, which
        /// FFmpeg cannot seek (a file's probe seeks to its end and back, and starts the parser
        /// anew).
        static func reelPackets(piping file: String) throws -> [PacketRow] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            let pipe = Pipe()
            let writer = Thread {
                try? pipe.fileHandleForWriting.write(contentsOf: bytes)
                try? pipe.fileHandleForWriting.close()
            }
            writer.start()
            return try reelPackets("pipe:\(pipe.fileHandleForReading.fileDescriptor)")
        }

        @Test(arguments: [0, 2]) func thePacketsAreFFmpegsPictures(bFrames: Int) throws {
            let file = try Self.transportStream(bFrames: bFrames)
            let expected = try Self.ffprobePackets(file)
            try #require(expected.count == 90)
            let ours = try Self.reelPackets(piping: file)
            #expect(ours.count == expected.count)
            for (index, pair) in zip(ours, expected).enumerated() where pair.0 != pair.1 {
                Issue.record("packet \(index): reel \(pair.0), ffprobe \(pair.1)")
                break
            }
        }

        /// Offset of the TS packet that starts video PES packet `number` (from 0).
        static func startOfPES(_ number: Int, in bytes: Data) -> Int? {
            var seen = 0
            for offset in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[offset] == 0x47 {
                let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
                guard pid == 0x100, bytes[offset + 1] & 0x40 != 0 else { continue }
                if seen == number { return offset }
                seen += 1
            }
            return nil
        }

        /// Thirty pictures written into a pipe that stays open: all thirty are read before
        /// anything follows them (FFmpeg's parser alone keeps the last until the next starts).
        @Test(.timeLimit(.minutes(1))) func aPictureIsReadBeforeTheNextOneIsSent() throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try Self.transportStream(bFrames: 0)))
            let cut = try #require(Self.startOfPES(30, in: bytes))
            let pipe = Pipe()
            let read = LockedCount()
            let reader = Thread {
                _ = try? Self.reelPackets("pipe:\(pipe.fileHandleForReading.fileDescriptor)") { read.set($0) }
                read.finish()
            }
            reader.start()
            try pipe.fileHandleForWriting.write(contentsOf: bytes.prefix(cut))
            let beforeTheEnd = read.wait(within: 30) { count, _ in count >= 30 }
            try pipe.fileHandleForWriting.close()
            _ = read.wait(within: 30) { _, finished in finished }
            #expect(beforeTheEnd == 30, "\(beforeTheEnd) of 30 pictures read while the pipe was open")
            #expect(read.value == 30)
        }

        /// GStreamer's mpegtsmux puts each NAL unit of NAL-aligned H.264 (four slices a
        /// picture) in a PES packet of its own: the stream goes back to the parser at the
        /// first packet that is no whole picture, and from there on its packets are
        /// ffprobe's, whole pictures.
        @Test(.timeLimit(.minutes(1))) func picturesSplitAcrossPacketsGoBackToTheParser() throws {
            let slices = try Fixtures.made("four-slices.h264", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=3", "-c:v", "libx264", "-x264-params", "slices=4",
                "-bf", "0", "-g", "30", "-pix_fmt", "yuv420p"])
            let file = Fixtures.directory.appendingPathComponent("four-slices-nal-aligned.ts").path
            if !FileManager.default.fileExists(atPath: file) {
                let made = try Processes.run("gst-launch-1.0", ["-q", "filesrc", "location=\(slices)", "!", "video/x-h264,framerate=30/1", "!", "h264parse", "!",
                                                                "video/x-h264,alignment=nal", "!", "mpegtsmux", "!", "filesink", "location=\(file)"])
                try #require(made.status == 0, "\(made.stderr)")
            }
            let expected = try Self.ffprobePackets(file)
            try #require(expected.count == 90)
            let ours = try Self.reelPackets(piping: file)
            // Around the switch one picture may come in parts (the parser's held start, the rest).
            #expect((expected.count...expected.count + 3).contains(ours.count), "\(ours.count) packets, ffprobe \(expected.count)")
            let settled = expected.count - 30
            let differing = zip(ours.suffix(settled), expected.suffix(settled)).filter { $0.0.md5 != $0.1.md5 }.count
            #expect(differing == 0, "\(differing) of the last \(settled) packets differ from ffprobe's")
        }
    }
}

/// A count one thread sets and another waits on, and whether the setter has finished.
private final class LockedCount: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0
    private var done = false
    func set(_ value: Int) { condition.withLock { count = value; condition.broadcast() } }
    func finish() { condition.withLock { done = true; condition.broadcast() } }
    var value: Int { condition.withLock { count } }

    /// Waits until `reached(count, finished)` or `seconds` pass; returns the count then.
    func wait(within seconds: Double, until reached: (Int, Bool) -> Bool) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while !reached(count, done) && condition.wait(until: deadline) {}
            return count
        }
    }
}
