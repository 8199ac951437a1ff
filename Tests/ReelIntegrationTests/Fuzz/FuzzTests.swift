import Foundation
import ReelCore
import Testing

/// libFuzzer on each of Reel's parsers (Fuzz/Sources), in two lines of one after another,
/// seeded with real inputs, with the target's dictionary (Fuzz/Dictionaries) and the inputs
/// that once failed (Fuzz/Regressions/NAME, replayed first): no crash, no memory past 2 GB,
/// no input slower than 10 s. A smoke run; `scripts/fuzz-campaign.sh TARGET RUNS` runs one for long,
/// from the corpus these runs leave when `REEL_FUZZ_CORPORA` names a directory.
@Suite enum FuzzTests {
    /// Builds the fuzzers when needed and runs `target` on `corpus` for `seconds`.
    static func run(_ target: String, corpus: URL, in directory: URL, seconds: Int = 20) async throws {
        let binary = Paths.packageRoot.appendingPathComponent("Fuzz/.build/release/\(target)").path
        if !FileManager.default.isExecutableFile(atPath: binary) {
            let build = try Processes.run("/bin/bash", [Paths.packageRoot.appendingPathComponent("scripts/fuzz.sh").path], timeout: 900)
            #expect(build.status == 0, "building the fuzzer: \(build.stderr.suffix(2000))")
        }
        let name = String(target.dropFirst("ReelFuzz".count))
        let regressions = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/\(name)")
        for file in (try? FileManager.default.contentsOfDirectory(atPath: regressions.path)) ?? [] {
            try FileManager.default.copyItem(at: regressions.appendingPathComponent(file), to: corpus.appendingPathComponent(file))
        }
        let dictionary = Paths.packageRoot.appendingPathComponent("Fuzz/Dictionaries/\(target).dict")
        let dictionaryOption = FileManager.default.fileExists(atPath: dictionary.path) ? ["-dict=\(dictionary.path)"] : []
        // At the lowest priority, so that the timing tests running beside it keep their core.
        let result = try await Processes.runOffThePool("nice", ["-n", "19", binary, "-max_total_time=\(seconds)", "-rss_limit_mb=2048", "-timeout=10", "-max_len=65536",
                                                "-print_funcs=0", "-artifact_prefix=\(directory.path)/"] + dictionaryOption + [corpus.path],
                                       timeout: Double(seconds) + 120, environment: ["SWIFT_BACKTRACE": "enable=no"])
        let runs = result.stderr.split(separator: "\n").last { $0.hasPrefix("Done ") } ?? "no summary"
        print("\(target): \(runs)")
        #expect(result.status == 0 && !result.timedOut, "libFuzzer: \(result.stderr.suffix(3000))")
        #expect(result.seconds >= Double(seconds))
        let crashes = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("crash-") || $0.hasPrefix("oom-") || $0.hasPrefix("timeout-") }
        #expect(crashes.isEmpty, "inputs that failed: \(crashes)")
        if let keep = ProcessInfo.processInfo.environment["REEL_FUZZ_CORPORA"] {
            let kept = URL(fileURLWithPath: keep).appendingPathComponent(target)
            try? FileManager.default.removeItem(at: kept)
            try FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: corpus, to: kept)
        }
    }

    static func emptyCorpus() throws -> (directory: URL, corpus: URL) {
        let directory = try Paths.temporaryDirectory()
        let corpus = directory.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        return (directory, corpus)
    }

    /// The NAL units of the RTP tests' H.264 and H.265 streams, as Annex B.
    static func annexB(_ name: String) throws -> [UInt8] {
        let sent = try RTPStreams.sent(name)
        let path = try Paths.temporaryDirectory().appendingPathComponent("\(name).es").path
        let raw = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", sent, "-c", "copy", "-frames:v", "3", "-f", name == "h265" ? "hevc" : "h264", path])
        guard raw.status == 0 else { throw TestSetupError(raw.stderr) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

extension FuzzTests {
    /// What is read from files: one fuzzer at a time, beside `Streams`. Each fuzzer runs at the
    /// lowest priority and is awaited off the test process's thread pool, which the other
    /// suites need.
    @Suite(.serialized) struct Files {
        /// The MP4 reader and the vapc parser, seeded with a small VAP file and Tencent's vapc JSON.
        @Test func theMP4ReaderAndVapcParserSurviveAMinuteOfFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let frames = directory.appendingPathComponent("frames")
            try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
            _ = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=32x16:r=5:d=0.6,format=rgba", frames.appendingPathComponent("%02d.png").path])
            let packed = try reel("vap", "pack", frames.appendingPathComponent("%02d.png").path, "-o", corpus.appendingPathComponent("tiny.mp4").path, "--fps", "5")
            #expect(packed.status == 0, "\(packed.stderr)")
            for name in VAPCommandTests.fixtures {
                let data = try Data(contentsOf: try Paths.sharedFixtures("vap").appendingPathComponent(name))
                if let box = MP4Patches.topLevelBoxes(data).first(where: { $0.type == "vapc" }) {
                    try data[box.range.lowerBound + 8..<box.range.upperBound].write(to: corpus.appendingPathComponent("\(name).json"))
                }
            }
            try await FuzzTests.run("ReelFuzzVAP", corpus: corpus, in: directory, seconds: 60)
        }

        /// Spherical metadata, seeded with files carrying V1 XML and V2 boxes and one with none.
        @Test func theSphericalMetadataReaderSurvivesFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            func clip(_ name: String) throws -> URL {
                let url = corpus.appendingPathComponent(name)
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=64x32:rate=5:duration=0.4",
                                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
                guard made.status == 0 else { throw TestSetupError(made.stderr) }
                return url
            }
            try MP4Patches.addSphericalV2(try clip("v2.mp4"), stereoMode: 1, yaw: 30, pitch: -10, roll: 5)
            try MP4Patches.addSphericalV1(try clip("v1.mp4"), xml: """
                <?xml version="1.0"?><rdf:SphericalVideo xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
                xmlns:GSpherical="http://ns.google.com/videos/1.0/spherical/"><GSpherical:Spherical>true</GSpherical:Spherical>\
                <GSpherical:ProjectionType>equirectangular</GSpherical:ProjectionType><GSpherical:StereoMode>left-right</GSpherical:StereoMode>\
                <GSpherical:InitialViewHeadingDegrees>90</GSpherical:InitialViewHeadingDegrees></rdf:SphericalVideo>
                """)
            _ = try clip("flat.mp4")
            try await FuzzTests.run("ReelFuzzSpherical", corpus: corpus, in: directory)
        }

        /// y4m stream headers, seeded with the ones ffmpeg writes for several formats.
        @Test func theY4MHeaderParserSurvivesFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            for format in ["yuv420p", "yuvj420p", "yuv444p", "gray", "yuv422p"] {
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=16x8:rate=30000/1001",
                                                        "-frames:v", "1", "-pix_fmt", format, "-strict", "-1", "-f", "yuv4mpegpipe", "-"])
                guard made.status == 0 else { throw TestSetupError(made.stderr) }
                try (made.stdout.split(separator: "\n").first.map(String.init) ?? "").write(
                    to: corpus.appendingPathComponent("\(format).y4m"), atomically: true, encoding: .utf8)
            }
            try await FuzzTests.run("ReelFuzzY4M", corpus: corpus, in: directory)
        }

        /// Camera paths, seeded with both shapes `reel pano render --path` reads.
        @Test func theCameraPathReaderSurvivesFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            try #"[{"time":0,"yaw":0},{"time":2.5,"yaw":350,"pitch":-20,"fov":100},{"time":4,"yaw":-170}]"#.write(
                to: corpus.appendingPathComponent("list.json"), atomically: true, encoding: .utf8)
            try #"{"keyframes":[{"time":1,"yaw":90,"pitch":89.5,"fov":179},{"time":0,"yaw":-90,"fov":1}]}"#.write(
                to: corpus.appendingPathComponent("object.json"), atomically: true, encoding: .utf8)
            try await FuzzTests.run("ReelFuzzCameraPath", corpus: corpus, in: directory)
        }

        /// Playlist files and the queue they make, seeded with the M3U8 ffmpeg's HLS muxer
        /// writes, an extended M3U and a PLS as players write them.
        @Test func thePlaylistReaderSurvivesFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let hls = directory.appendingPathComponent("hls")
            try FileManager.default.createDirectory(at: hls, withIntermediateDirectories: true)
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=32x16:rate=5:duration=3",
                                                    "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", hls.appendingPathComponent("index.m3u8").path])
            guard made.status == 0 else { throw TestSetupError(made.stderr) }
            try FileManager.default.copyItem(at: hls.appendingPathComponent("index.m3u8"), to: corpus.appendingPathComponent("hls.m3u8"))
            try "#EXTM3U\r\n#EXTINF:10,First\r\nfirst.mp4\r\n/abs/second.mkv\r\nhttp://host/third.ts\r\nfile:///tmp/a%20b.mp4\r\n".write(
                to: corpus.appendingPathComponent("list.m3u"), atomically: true, encoding: .utf8)
            try "[playlist]\nFile2=two.mp3\nTitle2=Two\nFile1=rtsp://cam/1\nLength1=-1\nNumberOfEntries=2\nVersion=2\n".write(
                to: corpus.appendingPathComponent("list.pls"), atomically: true, encoding: .utf8)
            try await FuzzTests.run("ReelFuzzPlaylist", corpus: corpus, in: directory)
        }

        /// Wall files, recording indexes, overlay requests, times and retention limits, each
        /// behind the byte that picks its reader, seeded with the shapes the unit tests read.
        @Test func theWallAndRecordingReadersSurviveFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let first = try #require(RecordingClock.parse("2026-11-28T10:15:00Z"))
            let index = (0..<3).map { RecordingIndexEntry(file: RecordingClock.segmentName(start: first.addingTimeInterval(Double($0) * 10)),
                                                          first: first.addingTimeInterval(Double($0) * 10),
                                                          last: first.addingTimeInterval(Double($0) * 10 + 9.96), keyframes: [0, 2, 4, 6, 8]).line }
            let seeds: [(String, UInt8, String)] = [
                ("wall.json", 0, #"{"cameras": [{"name": "Door", "main": "rtsp://10.0.0.5/main", "sub": "rtsp://10.0.0.5/sub", "username": "admin", "password": "p@ss"}, "rtsp://cam2/live"]}"#),
                ("wall.m3u", 0, "#EXTM3U\n#EXTINF:-1 tvg-name=\"a,b\",Garage\nrtsp://10.0.0.9/1\nrtsp://10.0.0.10/1\n"),
                ("index.jsonl", 1, index.joined(separator: "\n") + "\n"),
                ("overlay", 2, #"gifts/rocket.mp4@3.5,pos=10:20:300:400w,scale=0.5,z=2,loops=0,sTxt1=Hi\, Reel,sImg1=a.png"#),
                ("time", 3, "2026-11-28T11:15:00.250+01:00"),
                ("retention", 4, "1.5GiB"),
            ]
            for (name, selector, text) in seeds { try (Data([selector]) + Data(text.utf8)).write(to: corpus.appendingPathComponent(name)) }
            try await FuzzTests.run("ReelFuzzRecordings", corpus: corpus, in: directory)
        }
    }

    /// What arrives from the network or another program: one fuzzer at a time, beside `Files`.
    @Suite(.serialized) struct Streams {
        /// RTP, RTCP and SDP parsing, the jitter buffer and both depacketizers, seeded with the
        /// packets and SDPs ffmpeg sends for H.264 and H.265, a sender report and the inputs in
        /// Fuzz/Regressions/RTP.
        @Test func theRTPParsersAndDepacketizersSurviveAMinuteOfFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            for name in ["zerolatency", "h265"] {
                let sent = try RTPStreams.sent(name)
                let (packets, sdp) = try RTPStreams.captured(sent, directory: directory)
                try Data(sdp.utf8).write(to: corpus.appendingPathComponent("\(name).sdp"))
                // Seeds of up to 16 packets, small ones so that mutations reach every path.
                for (index, run) in stride(from: 0, to: min(packets.count, 160), by: 16).enumerated() {
                    var framed: [UInt8] = []
                    for packet in packets[run..<min(run + 16, packets.count)] {
                        let body = [UInt8(index % 7)] + packet.prefix(600)
                        framed += [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
                    }
                    try Data(framed).write(to: corpus.appendingPathComponent("\(name)-\(index).rtp"))
                }
            }
            let senderReport: [UInt8] = [0x80, 200, 0, 6, 0, 0, 0, 7, 0xE9, 0, 0, 0, 0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 10, 0, 0, 3, 232,
                                         0x81, 203, 0, 1, 0, 0, 0, 7]
            try Data(senderReport).write(to: corpus.appendingPathComponent("sr-bye.rtcp"))
            try await FuzzTests.run("ReelFuzzRTP", corpus: corpus, in: directory, seconds: 60)
        }

        /// SPS, VPS and decoder configuration records, seeded with x264's and x265's.
        @Test func theParameterSetParsersSurviveFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let h264 = AnnexB.units(in: try FuzzTests.annexB("zerolatency")).map(Array.init)
            let h265 = AnnexB.units(in: try FuzzTests.annexB("h265")).map(Array.init)
            let h264Sets = (sps: h264.filter { VideoCodec.h264.nalType($0[0]) == 7 }, pps: h264.filter { VideoCodec.h264.nalType($0[0]) == 8 })
            let h265Sets = (vps: h265.filter { VideoCodec.h265.nalType($0[0]) == 32 }, sps: h265.filter { VideoCodec.h265.nalType($0[0]) == 33 },
                            pps: h265.filter { VideoCodec.h265.nalType($0[0]) == 34 })
            #expect(!h264Sets.sps.isEmpty && !h265Sets.sps.isEmpty)
            let seeds: [(String, [UInt8])] = [
                ("h264.sps", [0] + (h264Sets.sps.first ?? [])),
                ("h265.sps", [1] + (h265Sets.sps.first ?? [])),
                ("avcC", [2] + (try DecoderConfigurationRecord.avcC(sequenceParameterSets: h264Sets.sps, pictureParameterSets: h264Sets.pps))),
                ("hvcC", [3] + (try DecoderConfigurationRecord.hvcC(videoParameterSets: h265Sets.vps, sequenceParameterSets: h265Sets.sps,
                                                                     pictureParameterSets: h265Sets.pps))),
            ]
            for (name, bytes) in seeds { try Data(bytes).write(to: corpus.appendingPathComponent(name)) }
            try await FuzzTests.run("ReelFuzzParameterSets", corpus: corpus, in: directory)
        }

        /// The Annex B scanner and length-prefixed samples, seeded with the start of both streams.
        @Test func theAnnexBScannerSurvivesFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            for name in ["zerolatency", "h265"] {
                let stream = try FuzzTests.annexB(name)
                try Data(stream.prefix(4096)).write(to: corpus.appendingPathComponent("\(name).annexb"))
                let sample = AnnexB.lengthPrefixed(AnnexB.units(in: Array(stream.prefix(4096))))
                try Data([2] + sample).write(to: corpus.appendingPathComponent("\(name).sample"))
            }
            try await FuzzTests.run("ReelFuzzAnnexB", corpus: corpus, in: directory)
        }

        /// What an RTSP server sends, seeded with a real exchange with gst-rtsp-server (a 401
        /// and its challenges; OPTIONS, DESCRIBE, SETUP over TCP and PLAY, then RTP interleaved)
        /// captured here by Support/rtsp-capture.py: the connection bytes, its header values,
        /// its SDP and its challenges, each behind the byte that picks its reader.
        @Test func theRTSPReadersSurviveFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try ServerPlaybackTests.RTSPServerTests.Server(serving: try ServerPlaybackTests.RTSPServerTests.clip())
            defer { server.stop() }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Support/rtsp-capture.py").path
            let capture = try Processes.run("/usr/bin/python3", [script, String(server.port), directory.path], timeout: 60)
            try #require(capture.status == 0, "capturing the RTSP exchange: \(capture.stderr)")
            let read = { (name: String) in try Data(contentsOf: directory.appendingPathComponent(name)) }
            let connection = try read("connection.bin")
            // The connection in chunks of 1, 37 and 64 bytes (each also read whole), and its first kilobyte.
            for (name, selector, bytes) in [("connection-1", UInt8(0), connection), ("connection-37", 144, connection), ("connection-64", 252, connection),
                                            ("answers", 4, connection.prefix(1024)), ("unauthorized", 0, try read("unauthorized.bin")),
                                            ("headers", 1, try read("headers.txt")), ("sdp", 2, try read("sdp.txt")), ("challenges", 3, try read("challenges.txt"))] {
                try (Data([selector]) + bytes).write(to: corpus.appendingPathComponent(name))
            }
            try await FuzzTests.run("ReelFuzzRTSP", corpus: corpus, in: directory)
        }

        /// What a WHEP or WHIP server sends, seeded with a real exchange: a viewer's offer and
        /// a server's answer, both aiortc's (Support/webrtc-server.py --exchange); a session's
        /// location, and a candidate line as libnice writes one.
        @Test func theWebRTCReadersSurviveFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Support/webrtc-server.py").path
            let python = Paths.packageRoot.appendingPathComponent(".cache/python/bin/python").path
            let exchange = try Processes.run(python, [script, "--exchange", try ServerPlaybackTests.WebRTCTests.clip()], timeout: 60)
            let parts = exchange.stdout.components(separatedBy: "--\n")
            try #require(exchange.status == 0 && parts.count == 2 && parts.allSatisfy { $0.hasPrefix("v=0") }, "aiortc's exchange: \(exchange.stderr.suffix(1000))")
            let seeds: [(String, UInt8, String)] = [
                ("offer", 0, parts[0]), ("answer", 0, parts[1]),
                ("location", 1, "127.0.0.1:8889/cam/whep\n/cam/whep/session/0f3e9c"),
                ("candidate", 2, "candidate:1 1 UDP 2015363327 192.0.2.2 50893 typ host"),
            ]
            for (name, selector, text) in seeds { try (Data([selector]) + Data(text.utf8)).write(to: corpus.appendingPathComponent(name)) }
            try await FuzzTests.run("ReelFuzzWebRTC", corpus: corpus, in: directory)
        }

        /// Manifests, seeded with what nginx-rtmp writes for a live stream and its two-variant
        /// ladder (a media playlist, the master, a variant's playlist after `#--`), and the
        /// DASH manifest and HLS master ffmpeg's muxers write.
        @Test func theManifestReadersSurviveFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try RTMPServer()
            defer { server.stop() }
            let file = try Fixtures.made("fuzz-ladder-source-6s.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=6", "-c:v", "libx264", "-g", "25"])
            let publisher = try publishLadder(file, to: server, name: "ladder", loops: -1)
            defer { publisher.stop() }
            try waitFor("two HLS fragments of each variant", while: publisher) {
                server.hlsHasFragments(2, name: "ladder_low") && server.hlsHasFragments(2, name: "ladder_high")
            }
            let master = try #require(server.hlsPlaylist("ladder"))
            let variant = try #require(server.hlsPlaylist("ladder_low"))
            try variant.write(to: corpus.appendingPathComponent("nginx-media.m3u8"), atomically: true, encoding: .utf8)
            try (master + "\n#--\n" + variant).write(to: corpus.appendingPathComponent("nginx-master.m3u8"), atomically: true, encoding: .utf8)
            let dash = directory.appendingPathComponent("dash")
            let hls = directory.appendingPathComponent("hls")
            for made in [dash, hls] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
            let source = ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=2"]
            let mpd = try Processes.run("ffmpeg", source + ["-map", "0", "-map", "0", "-c:v", "libx264", "-b:v:0", "200k", "-b:v:1", "400k", "-s:v:1", "80x60",
                                                            "-f", "dash", dash.appendingPathComponent("manifest.mpd").path])
            let ladder = try Processes.run("ffmpeg", source + ["-map", "0", "-map", "0", "-c:v", "libx264", "-b:v:0", "200k", "-b:v:1", "400k", "-s:v:1", "80x60",
                                                               "-var_stream_map", "v:0 v:1", "-master_pl_name", "master.m3u8", "-f", "hls",
                                                               hls.appendingPathComponent("stream_%v.m3u8").path])
            try #require(mpd.status == 0 && ladder.status == 0, "\(mpd.stderr) \(ladder.stderr)")
            try FileManager.default.copyItem(at: dash.appendingPathComponent("manifest.mpd"), to: corpus.appendingPathComponent("ffmpeg.mpd"))
            let ffmpegMaster = try String(contentsOf: hls.appendingPathComponent("master.m3u8"), encoding: .utf8)
            let ffmpegVariant = try String(contentsOf: hls.appendingPathComponent("stream_0.m3u8"), encoding: .utf8)
            try (ffmpegMaster + "\n#--\n" + ffmpegVariant).write(to: corpus.appendingPathComponent("ffmpeg-master.m3u8"), atomically: true, encoding: .utf8)
            try await FuzzTests.run("ReelFuzzManifests", corpus: corpus, in: directory)
        }

        /// Bytes that arrive framed or as pictures, seeded with the RTP tests' H.264 packets
        /// behind 4-byte lengths, an access unit of x264's, a picture with the latency timecode
        /// drawn into it, and a y4m file ffmpeg wrote.
        @Test func theFramingReadersSurviveFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (packets, _) = try RTPStreams.captured(try RTPStreams.sent("zerolatency"), directory: directory)
            let framed = packets.prefix(24).flatMap { LengthPrefixedFramer.frame(Array($0.prefix(600)), lengthSize: 4) }
            try Data([0] + framed).write(to: corpus.appendingPathComponent("framed"))
            try Data([40] + framed).write(to: corpus.appendingPathComponent("framed-11"))
            let units = AnnexB.units(in: try FuzzTests.annexB("zerolatency")).map(Array.init)
            // The first access unit: the parameter sets and units up to its first slice.
            let firstSlice = units.firstIndex { [1, 5].contains(VideoCodec.h264.nalType($0[0])) } ?? 0
            let accessUnit: [UInt8] = units[...firstSlice].flatMap { [0, 0, 0, 1] + $0 }
            try Data([1] + accessUnit).write(to: corpus.appendingPathComponent("access-unit"))
            let picture = try PixelBuffer(format: .i420, width: 256, height: 64)
            LatencyTimecode.draw(1_234_567_890_123, into: picture)
            let luma = picture.planes[0]
            let rows = (0..<64).flatMap { row in Array(UnsafeRawBufferPointer(start: luma.row(row), count: 256)) }
            try Data([2, 255, 63] + rows).write(to: corpus.appendingPathComponent("timecode"))
            let y4m = directory.appendingPathComponent("pictures.y4m")
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=16x8:rate=25", "-frames:v", "2",
                                                    "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", y4m.path])
            try #require(made.status == 0, "\(made.stderr)")
            try (Data([3]) + Data(contentsOf: y4m)).write(to: corpus.appendingPathComponent("pictures.y4m"))
            try await FuzzTests.run("ReelFuzzFraming", corpus: corpus, in: directory)
        }

        /// What a client of mpv's JSON IPC sends, seeded with the requests the IPC tests send
        /// to mpv and Reel, the ones python-mpv-jsonipc starts with, and text commands.
        @Test func theMPVIPCSessionSurvivesFuzzing() async throws {
            let (directory, corpus) = try FuzzTests.emptyCorpus()
            defer { try? FileManager.default.removeItem(at: directory) }
            let requests = ServerPlaybackTests.MPVIPCCommandTests.requests.enumerated().map { #"{"command": \#($1), "request_id": \#($0 + 1)}"# }
            try Data(requests.joined(separator: "\n").utf8).write(to: corpus.appendingPathComponent("requests"))
            let client = [#"{"command": ["get_property", "property-list"], "request_id": 1}"#, #"{"command": ["get_property", "command-list"], "request_id": 2}"#,
                          #"{"command": ["observe_property", 1, "pause"], "request_id": 3}"#, #"{"command": ["set_property", "pause", false], "request_id": 4}"#]
            try Data(client.joined(separator: "\n").utf8).write(to: corpus.appendingPathComponent("python-mpv-jsonipc"))
            try Data("set pause yes\ncycle aid\nseek 5 absolute+exact\nshow-text \"${time-pos} \\\"s\\\"\" 2000 # a comment\n".utf8)
                .write(to: corpus.appendingPathComponent("text-commands"))
            try await FuzzTests.run("ReelFuzzIPC", corpus: corpus, in: directory, seconds: 10)
        }
    }
}
