import Foundation
import Testing

extension PlaybackTests {
    /// `reel encode` judged by ffprobe and ffmpeg.
    @Suite(.serialized) struct EncodeCommandTests {
        static func output(_ name: String) throws -> String { try Paths.temporaryDirectory().appendingPathComponent(name).path }

        @Test(arguments: [("baseline", "Constrained Baseline"), ("main", "Main"), ("high", "High")])
        func theProfileIsTheOneAskedForAndBaselineHasNoBFrames(_ profile: String, _ expected: String) throws {
            let source = try EncodeOracle.source720p(seconds: 2)
            let path = try Self.output("profile-\(profile).mp4")
            let result = try reel("encode", "-i", source, "--bitrate", "2M", "--profile", profile, "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let stream = try EncodeOracle.streamFields(path, "profile,level,has_b_frames")
            #expect(stream["profile"] == expected)
            #expect(stream["level"] == "31", "x264 picks level 3.1 for 720p30")
            let types = Set(try EncodeOracle.frames(path).map(\.pictureType))
            if profile == "baseline" {
                #expect(stream["has_b_frames"] == "0" && !types.contains("B"), "\(types)")
            } else {
                #expect(types.contains("B"), "frame reordering is allowed by default: \(types)")
            }
            #expect(try EncodeOracle.decodingErrors(path).isEmpty)
        }

        @Test func aRequestedLevelIsWritten() throws {
            let path = try Self.output("level.h264")
            let result = try reel("encode", "-i", try EncodeOracle.source720p(seconds: 2), "--profile", "high", "--level", "4.1", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try EncodeOracle.streamFields(path, "profile,level")["level"] == "41")
        }

        @Test(arguments: ["h264", "h265"])
        func realTimeGivesPTSEqualToDTSOnEveryPacket(_ codec: String) throws {
            let path = try Self.output("realtime-\(codec).mp4")
            let result = try reel("encode", "-i", try EncodeOracle.source720p(seconds: 2), "--codec", codec, "--bitrate", "2M", "--realtime", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let packets = try EncodeOracle.packets(path)
            #expect(packets.count == 60)
            #expect(packets.allSatisfy { $0.pts != nil && $0.pts == $0.dts })
            #expect(try EncodeOracle.decodingErrors(path).isEmpty)
        }

        @Test(arguments: ["h264", "h265"])
        func aFixedGOPPutsKeyframesExactlyEveryNFrames(_ codec: String) throws {
            let path = try Self.output("fixed-gop-\(codec).mp4")
            let result = try reel("encode", "-i", try EncodeOracle.source720p(seconds: 3), "--codec", codec, "--gop", "12", "--fixed-gop", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let keyframes = try EncodeOracle.frames(path).enumerated().filter { $0.element.isKeyframe }.map(\.offset)
            #expect(keyframes == Array(stride(from: 0, to: 90, by: 12)))
        }

        @Test func withoutAFixedGOPKeyframesAreAtMostNApartAndForcedOnesAreHonoured() throws {
            // Scene cuts every 0.7 s (three different sources concatenated) invite extra keyframes.
            let cuts = try Fixtures.made("encode-scene-cuts.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=0.7", "-f", "lavfi", "-i", "mandelbrot=size=640x360:rate=30,trim=duration=0.7",
                "-f", "lavfi", "-i", "smptebars=size=640x360:rate=30:duration=0.7",
                "-filter_complex", "[0][1][2]concat=n=3,loop=loop=2:size=63,format=yuv420p", "-c:v", "libx264", "-qp", "10"])
            let path = try Self.output("gop-max.mp4")
            let result = try reel("encode", "-i", cuts, "--gop", "25", "--force-keyframes", "7,40", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let keyframes = try EncodeOracle.frames(path).enumerated().filter { $0.element.isKeyframe }.map(\.offset)
            #expect(keyframes.first == 0 && keyframes.contains(7) && keyframes.contains(40), "\(keyframes)")
            let gaps = zip(keyframes.dropFirst(), keyframes).map { $0 - $1 }
            #expect(gaps.allSatisfy { $0 <= 25 }, "\(keyframes)")
            print("keyframes without a fixed GOP (N = 25, forced 7 and 40):", keyframes)
        }

        @Test(arguments: ["h264", "h265"])
        func theAnnexBFileStartsWithParameterSetsAndUsesFourByteStartCodes(_ codec: String) throws {
            let path = try Self.output("stream.\(codec)")
            let result = try reel("encode", "-i", try EncodeOracle.source720p(seconds: 2), "--codec", codec, "--bitrate", "2M", "--gop", "30", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let units = Self.unitsWithStartCodeLengths(bytes)
            let types = units.map { codec == "h264" ? Int($0.firstByte & 0x1F) : Int($0.firstByte >> 1 & 0x3F) }
            #expect(units.allSatisfy { $0.startCodeLength == 4 }, "every NAL unit after 00 00 00 01")
            if codec == "h264" {
                #expect(Array(types.prefix(2)) == [7, 8], "SPS then PPS first: \(types.prefix(4))")
            } else {
                #expect(Array(types.prefix(3)) == [32, 33, 34], "VPS, SPS, PPS first: \(types.prefix(4))")
            }
            #expect(try EncodeOracle.decodingErrors(path, inputOptions: ["-r", "30"]).isEmpty)
            #expect(try EncodeOracle.frames(path).count == 60)

            let repeated = try Self.output("repeated.\(codec)")
            #expect(try reel("encode", "-i", try EncodeOracle.source720p(seconds: 2), "--codec", codec, "--gop", "30", "--fixed-gop", "--repeat-headers", "-o", repeated).status == 0)
            let repeatedTypes = Self.unitsWithStartCodeLengths([UInt8](try Data(contentsOf: URL(fileURLWithPath: repeated))))
                .map { codec == "h264" ? Int($0.firstByte & 0x1F) : Int($0.firstByte >> 1 & 0x3F) }
            #expect(repeatedTypes.filter { $0 == (codec == "h264" ? 7 : 33) }.count == 2, "an SPS before each of the two keyframes")
        }

        /// MPEG-TS out of `reel encode` (what it sends over SRT, UDP and TCP) gives each video
        /// PES its length, so a receiver hands a picture on when its last byte comes rather
        /// than when the next picture starts: every video PES length read from the 188-byte
        /// packets equals the bytes that follow it (or is 0 when they do not fit its 16 bits),
        /// and ffmpeg decodes the file without an error.
        @Test func transportStreamVideoPESCarryTheirLength() throws {
            let path = try Self.output("lengths.ts")
            let result = try reel("encode", "-i", try EncodeOracle.source720p(seconds: 2), "--bitrate", "2M", "--gop", "30", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count % 188 == 0 && bytes.first == 0x47)
            // (declared length, payload bytes seen) per video PES, in order.
            var pes: [(declared: Int, seen: Int)] = []
            var videoPID: Int?
            for start in stride(from: 0, to: bytes.count - 187, by: 188) {
                let packet = bytes[start..<start + 188]
                let pid = Int(packet[start + 1] & 0x1F) << 8 | Int(packet[start + 2])
                let unitStart = packet[start + 1] & 0x40 != 0
                let adaptation = packet[start + 3] >> 4 & 0x3
                guard adaptation & 1 != 0 else { continue }
                let payload = adaptation == 3 ? start + 5 + Int(packet[start + 4]) : start + 4
                guard payload < start + 188 else { continue }
                if unitStart, packet[payload] == 0, packet[payload + 1] == 0, packet[payload + 2] == 1, packet[payload + 3] & 0xF0 == 0xE0 {
                    videoPID = pid
                    pes.append((Int(packet[payload + 4]) << 8 | Int(packet[payload + 5]), start + 188 - payload - 6))
                } else if pid == videoPID, !pes.isEmpty {
                    pes[pes.count - 1].seen += start + 188 - payload
                }
            }
            #expect(pes.count == 60, "\(pes.count) video PES")
            // The field has 16 bits: a bigger PES (a large keyframe) says 0, "unbounded".
            #expect(pes.allSatisfy { $0.seen > 0xFFFF ? $0.declared == 0 : $0.declared == $0.seen }, "\(pes.filter { $0.declared != $0.seen }.prefix(3))")
            #expect(pes.filter { $0.declared > 0 }.count >= 55, "\(pes.map(\.seen))")
            #expect(try EncodeOracle.decodingErrors(path).isEmpty)
        }

        /// Each NAL unit's first byte and the length of the start code before it, found by
        /// scanning for 00 00 01 independently of Reel.
        static func unitsWithStartCodeLengths(_ bytes: [UInt8]) -> [(firstByte: UInt8, startCodeLength: Int)] {
            var units: [(UInt8, Int)] = []
            var index = 0
            while index + 3 < bytes.count {
                if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                    units.append((bytes[index + 3], index > 0 && bytes[index - 1] == 0 ? 4 : 3))
                    index += 3
                } else {
                    index += 1
                }
            }
            return units
        }

        @Test func qualityAt2MbpsIn720pIsReportedByFFmpegsFilters() throws {
            let source = try EncodeOracle.source720p()
            let path = try Self.output("quality.mp4")
            let result = try reel("encode", "-i", source, "--bitrate", "2M", "--profile", "high", "-o", path, timeout: 300)
            #expect(result.status == 0, "\(result.stderr)")
            let measured = try Processes.run("ffmpeg", ["-nostdin", "-i", path, "-i", source, "-lavfi", "[0:v][1:v]psnr;[0:v][1:v]ssim", "-f", "null", "-"], timeout: 300)
            let psnr = Self.number(after: "average:", inLastLineContaining: "PSNR", of: measured.stderr) ?? 0
            let ssim = Self.number(after: "All:", inLastLineContaining: "SSIM", of: measured.stderr) ?? 0
            let rate = try EncodeOracle.streamFields(path, "bit_rate")["bit_rate"].flatMap(Double.init) ?? 0
            print(String(format: "720p testsrc2 at 2 Mbit/s (H.264 high, veryfast): PSNR %.2f dB, SSIM %.4f, %.0f kbit/s", psnr, ssim, rate / 1000))
            #expect(psnr > 30 && ssim > 0.9)
            #expect(abs(rate - 2e6) / 2e6 < 0.1)
        }

        @Test func aFileIsTranscodedWithItsAudioCopied() throws {
            let source = try Fixtures.made("encode-with-audio.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=3",
                                                                    "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:v", "libx264", "-c:a", "aac", "-shortest"])
            let path = try Self.output("transcoded.mp4")
            let result = try reel("encode", "-i", source, "--codec", "h265", "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            let streams = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,duration", "-of", "csv=p=0", path]).stdout
            #expect(streams.contains("hevc") && streams.contains("aac"), "\(streams)")
            #expect(try EncodeOracle.frames(path).count == 75)
            func audioPackets(_ file: String) throws -> String {
                try Processes.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                              "-of", "csv=p=0", file]).stdout
            }
            #expect(try audioPackets(path) == (try audioPackets(source)), "every audio packet copied, the file's tail included")
            #expect(try EncodeOracle.decodingErrors(path).isEmpty)
        }

        /// Audio an MP4 cannot carry (PCM, Vorbis) is re-encoded to AAC: same rate and
        /// channels, in sync, and every second of it there. Each second of the source is a
        /// step louder, so a second lost, doubled or moved shows in the levels ffmpeg measures.
        @Test(arguments: [("pcm_s16le", 48_000, 2), ("libvorbis", 44_100, 1)])
        func audioTheContainerCannotTakeIsReencodedToAAC(_ codec: String, _ rate: Int, _ channels: Int) throws {
            let steps = "(0.1+0.2*floor(t))*sin(2*PI*440*t)"
            let source = try Fixtures.made("encode-with-\(codec).mkv", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=3",
                                                                        "-f", "lavfi", "-i", "aevalsrc=exprs=\(Array(repeating: steps, count: channels).joined(separator: "|")):s=\(rate):d=3",
                                                                        "-c:v", "libx264", "-c:a", codec])
            let path = try Self.output("reencoded-\(codec).mp4")
            let result = try reel("encode", "-i", source, "-o", path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("the input's \(codec == "libvorbis" ? "vorbis" : codec) audio was re-encoded to AAC"), "\(result.stderr)")
            let audio = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name,sample_rate,channels,start_time",
                                                      "-of", "csv=p=0", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            #expect(audio.count == 4 && audio[0] == "aac" && audio[1] == "\(rate)" && audio[2] == "\(channels)", "\(audio)")
            #expect(audio.count == 4 && abs(Double(audio[3]) ?? 1) < 0.001, "the audio starts at \(audio.last ?? "?") s, not with the video at 0")
            #expect(try EncodeOracle.frames(path).count == 75)
            /// The RMS level (dB) of each whole second of the first audio stream.
            func levels(_ file: String) throws -> [Double] {
                let measured = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:a:0", "-af",
                                                            "asetnsamples=n=\(rate),astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-",
                                                            "-f", "null", "-"]).stdout
                return measured.split(separator: "\n").compactMap { line in line.split(separator: "=").last.flatMap { Double($0) } }
            }
            // The encoder's last frame is padded (AAC frames are 1,024 samples): only whole seconds are compared.
            let expected = try levels(source).prefix(3), got = try levels(path).prefix(3)
            #expect(expected.count == 3 && got.count == 3 && zip(expected, got).allSatisfy { abs($0 - $1) < 0.5 },
                    "RMS per second: source \(expected) dB, output \(got) dB")
            // As long as ffmpeg's own re-encoding of the same audio, padding included.
            let ffmpegs = try Self.output("ffmpeg-\(codec).mp4")
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", source, "-vn", "-c:a", "aac", ffmpegs]).status == 0)
            func sampleCount(_ file: String) throws -> Int {
                try Processes.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "frame=nb_samples", "-of", "csv=p=0", file])
                    .stdout.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
            }
            let reels = try sampleCount(path), ffmpegsCount = try sampleCount(ffmpegs)
            #expect(reels == ffmpegsCount && reels >= 3 * rate, "samples: Reel's \(reels), ffmpeg's \(ffmpegsCount)")
            #expect(try EncodeOracle.decodingErrors(path).isEmpty)
        }

        @Test func invalidParametersGiveOneClearLine() throws {
            let camera = try Self.output("never.h264")
            let cases: [([String], String)] = [
                (["--camera", "641x360@30", "--duration", "1"], "even"),
                (["--camera", "0x360@30", "--duration", "1"], "size"),
                (["--camera", "640x360@30", "--duration", "1", "--bitrate=-2M"], "positive"),
                (["--camera", "640x360@30", "--duration", "1", "--bitrate", "2M", "--max-rate", "1M"], "below"),
                (["--camera", "640x360@30", "--duration", "1", "--codec", "h265", "--profile", "high"], "H.265"),
                (["--camera", "640x360@30", "--duration", "1", "--gop", "0"], "keyframe interval"),
                (["-i", "/nonexistent.y4m"], "nonexistent"),
                (["-i", try Self.garbage()], "YUV4MPEG2"),
            ]
            for (arguments, phrase) in cases {
                let result = try Processes.run(Paths.reel, ["encode"] + arguments + ["-o", camera])
                #expect(result.status == 1, "\(arguments): \(result.stderr)")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("reel: ") && result.stderr.contains(phrase), "\(arguments): \(result.stderr)")
            }
            let unknown = try reel("encode", "--camera", "640x360@30", "--duration", "1", "--profile", "ultra", "-o", camera)
            #expect(unknown.status != 0 && unknown.stderr.contains("baseline, main or high"))
        }

        /// The number after `marker` in the last line of `text` that contains `key`.
        static func number(after marker: String, inLastLineContaining key: String, of text: String) -> Double? {
            guard let line = text.split(separator: "\n").last(where: { $0.contains(key) }), let found = line.range(of: marker) else { return nil }
            return Double(String(line[found.upperBound...].prefix { !$0.isWhitespace }))
        }

        static func garbage() throws -> String {
            let path = try output("garbage.y4m")
            try Data("not a y4m file at all\n".utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}
