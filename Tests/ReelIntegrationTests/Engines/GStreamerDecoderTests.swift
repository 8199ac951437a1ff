import Foundation
import ReelCore
import ReelFFmpeg
@testable import ReelGStreamer
import Testing

extension PlaybackTests {
    /// GStreamer's decoding (uridecodebin3 into appsinks) as Reel's frames, against ffmpeg's
    /// decode of the same file: both use libavcodec's H.264 and AAC decoders (GStreamer
    /// through gst-libav), so the pictures and the sound must be the same to the bit.
    /// Serialized with the suites that use every core: each test decodes a whole file as
    /// fast as GStreamer goes.
    @Suite(.serialized) struct GStreamerDecoderTests {
        private func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

        /// ffmpeg's framemd5 hashes of `path`'s `stream` (`v` or `a`) in `format`.
        private func ffmpegHashes(_ path: String, arguments: [String]) throws -> [Substring] {
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path] + arguments + ["-f", "framemd5", "-"])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last?.drop { $0 == " " } }
        }

        @Test func picturesAreFFmpegsToTheBit() throws {
            let clip = try Fixtures.seekable()
            let decoder = try GStreamerDecoder(uri: uri(clip), streams: .video)
            var hasher = FrameMD5()
            var hashes: [String] = []
            var times: [Double] = []
            while let frame = try decoder.nextVideoFrame() {
                hashes.append(hasher.hash(frame))
                times.append(frame.presentationTime?.seconds ?? -1)
            }
            let expected = try ffmpegHashes(clip, arguments: ["-map", "0:v", "-pix_fmt", "yuv420p"])
            print("GStreamer's pictures: \(hashes.count), ffmpeg's \(expected.count); \(zip(hashes, expected).filter { $0 == $1 }.count) equal; duration \(decoder.duration ?? -1) s")
            #expect(hashes.count == 250 && hashes == expected.map(String.init))
            #expect(times.enumerated().allSatisfy { abs($1 - Double($0) * 0.04) < 0.0005 }, "ffmpeg's timestamps, from 0 at 25 fps: \(times.prefix(5))")
            #expect(abs((decoder.duration ?? 0) - 10) < 0.05)
        }

        /// A stalled open is left for a new pipeline (see `localStallLimit`): forced here twice,
        /// each pipeline left as soon as it starts (while its type finder may still be at
        /// work: stopping it then can deadlock GStreamer, so the open must not wait for that),
        /// the third decodes every picture as ffmpeg does, with only its own elements in it.
        @Test func aStalledOpenStartsAgainAndDecodesEveryPicture() throws {
            let clip = try Fixtures.seekable()
            let decoder = try GStreamerDecoder(uri: uri(clip), streams: .video, timeout: 15, maximumBitrate: nil, readAhead: nil,
                                               audioStreamID: nil, forcedRestarts: 2)
            // A stall of GStreamer's own (now and then under load) adds one.
            #expect((2...2 + GStreamerDecoder.maximumRestarts).contains(decoder.restarts))
            // A queue, a deinterlacer (passing progressive pictures through), a converter, a
            // caps filter and an appsink for the pictures; a fakesink for the sound.
            #expect(decoder.branchElements.count == 6)
            var hasher = FrameMD5()
            var hashes: [String] = []
            while let frame = try decoder.nextVideoFrame() { hashes.append(hasher.hash(frame)) }
            let expected = try ffmpegHashes(clip, arguments: ["-map", "0:v", "-pix_fmt", "yuv420p"])
            #expect(hashes.count == 250 && hashes == expected.map(String.init))
        }

        @Test func soundIsFFmpegsToTheBit() throws {
            let clip = try Fixtures.seekable()
            let decoder = try GStreamerDecoder(uri: uri(clip), streams: .audio)
            var samples = Data()
            var rate = 0
            while let frame = try decoder.nextAudioFrame() {
                rate = frame.sampleRate
                samples.append(Data(bytes: frame.planes[0], count: frame.interleavedByteCount))
            }
            let raw = try Paths.temporaryDirectory().appendingPathComponent("sound.f32")
            try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", clip, "-map", "0:a", "-f", "f32le", raw.path])
            let reference = try Data(contentsOf: raw)
            let floats = { (data: Data) in data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
            let ours = floats(samples), theirs = floats(reference)
            let common = min(ours.count, theirs.count)
            let largest = zip(ours.prefix(common), theirs.prefix(common)).map { abs($0 - $1) }.max() ?? 0
            print("GStreamer's sound: \(ours.count) samples at \(rate) Hz, ffmpeg's \(theirs.count); largest difference \(largest)")
            // The same samples from the same start; GStreamer's MP4 demuxer leaves out the last
            // AAC frame (1,024 samples), which lies past the stream's 10 s.
            #expect(rate == 48000 && (theirs.count - 1024...theirs.count).contains(ours.count) && ours.count >= 480_000 - 1024 && largest == 0)
        }

        @Test func anExactSeekLandsOnFFmpegsPicture() throws {
            let clip = try Fixtures.seekable()
            let decoder = try GStreamerDecoder(uri: uri(clip), streams: .video)
            _ = try decoder.nextVideoFrame()
            try decoder.seek(to: 3.2, exact: true)
            let frame = try #require(try decoder.nextVideoFrame())
            var hasher = FrameMD5()
            let expected = try ffmpegHashes(clip, arguments: ["-ss", "3.2", "-map", "0:v", "-frames:v", "1", "-pix_fmt", "yuv420p"])
            print("exact seek to 3.2 s: the first picture at \(frame.presentationTime?.seconds ?? -1) s")
            #expect(frame.presentationTime.map { abs($0.seconds - 3.2) < 0.001 } == true, "\(frame.presentationTime?.seconds ?? -1)")
            #expect([Substring(hasher.hash(frame))] == expected)
        }

        @Test func badInputsAreGStreamersErrorsNotHangs() throws {
            let directory = try Paths.temporaryDirectory()
            let noise = directory.appendingPathComponent("noise.mp4")
            // Seeded: bytes drawn anew each run now and then passed for MPEG audio (no video)
            // or, in a loaded hunt, for H.263 video that opened; these are refused by both.
            var generator = SeededGenerator(seed: 42)
            try Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: noise)
            // Typefind's error comes with either wording, by how far the pipeline got.
            let cases = [("/no/such/file.mp4", ["resource not found"]), (noise.path, ["data stream error", "could not determine type", "no video stream"])]
            _ = GStreamer.version   // the registry loaded before anything is timed
            for (path, words) in cases {
                let started = Date()
                do {
                    _ = try GStreamerDecoder(uri: uri(path), streams: .video, timeout: 5)
                    Issue.record("\(path) opened")
                } catch {
                    print("GStreamer on \(path): \(error)")
                    #expect(words.contains { error.description.lowercased().contains($0) }, "\(error)")
                }
                #expect(Date().timeIntervalSince(started) < 6)
            }
            let silent = try SilentServer()
            defer { silent.stop() }
            let started = Date()
            #expect(throws: GStreamerError.self) { try GStreamerDecoder(uri: "http://127.0.0.1:\(silent.port)/clip.mp4", streams: .video, timeout: 2) }
            #expect(Date().timeIntervalSince(started) < 4)
        }

        /// GStreamer's libav plug-in sets FFmpeg's process-wide log callback when it loads; Reel
        /// reads FFmpeg's errors from that log, so after GStreamer has decoded in this process
        /// a truncated file must still be an error, with FFmpeg's own words. (FFmpeg opens a file
        /// first, as a player would have, so its callback is in place before GStreamer starts.)
        @Test func ffmpegStillReportsItsErrorsAfterGStreamerDecoded() throws {
            let clip = try Fixtures.faststartMP4()
            _ = try Demuxer(url: clip)
            let decoder = try GStreamerDecoder(uri: uri(clip), streams: .video)
            #expect(try decoder.nextVideoFrame() != nil)
            let data = try Data(contentsOf: URL(fileURLWithPath: clip))
            let cut = try Paths.temporaryDirectory().appendingPathComponent("cut.mp4")
            try data.prefix(data.count / 2).write(to: cut)
            let demuxer = try Demuxer(url: cut.path)
            do {
                while try demuxer.readPacket() != nil {}
                Issue.record("reading a truncated file ended without an error")
            } catch let error as InputError {
                #expect(error.reason == .truncated && error.detail?.contains("partial file") == true, "\(error)")
            }
        }
    
        /// The stream collection lists every stream with its language and codec as ffprobe
        /// gives them; another audio stream selected, a flushing seek starts it at once.
        @Test func theCollectionListsTheStreamsAndAnotherAudioStreamCanBeSelected() throws {
            let clip = try Fixtures.twoAudioLanguages()
            let decoder = try GStreamerDecoder(uri: uri(clip), streams: [.video, .audio])
            let listed = decoder.collection
            #expect(listed.map(\.type) == [.video, .audio, .audio])
            #expect(listed.map(\.codec) == ["h264", "aac", "aac"])
            #expect(listed.map { $0.language ?? "-" } == ["-", "eng", "fre"])
            #expect(listed.map(\.isDefault) == [false, true, false])
            try #require(listed.count == 3)
            #expect(decoder.playingStream(.video) == listed[0].id && decoder.playingStream(.audio) == listed[1].id,
                    "playing \(decoder.playingStream(.video) ?? "none"), \(decoder.playingStream(.audio) ?? "none")")
            /// The tone in the next 0.1 s of sound, after its first frame (a decoder's priming).
            func tone() throws -> Double {
                _ = try decoder.nextAudioFrame()
                var channel: [Float] = []
                var rate = 48_000
                while channel.count < 4_800, let frame = try decoder.nextAudioFrame() {
                    let samples = UnsafeBufferPointer(start: frame.planes[0].assumingMemoryBound(to: Float.self), count: frame.sampleCount * frame.channelCount)
                    channel += stride(from: 0, to: samples.count, by: frame.channelCount).map { samples[$0] }
                    rate = frame.sampleRate
                }
                let crossings = zip(channel, channel.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
                return Double(crossings) * Double(rate) / Double(max(channel.count, 1))
            }
            let before = try tone()
            #expect(abs(before - 440) < 30, "before: \(before) Hz")
            try decoder.select([listed[0].id, listed[2].id])
            try decoder.seek(to: 1, exact: true)
            let heard = try tone()
            #expect(abs(heard - 880) < 30, "after the selection: \(heard) Hz")
            #expect(decoder.playingStream(.audio) == listed[2].id)
        }
    }
}
