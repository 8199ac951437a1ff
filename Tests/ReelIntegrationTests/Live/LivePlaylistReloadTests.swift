import Foundation
import Reel
import Testing

/// A live HLS playlist reloaded in step with its server: each new segment fetched soon after
/// it is listed, and every packet as FFmpeg reads the finished stream.
@Suite struct LivePlaylistReloadTests {
    static let segmentCount = 12

    /// Twelve one-second H.264 segments and ffmpeg's own (VOD) playlist of them.
    static func segments() throws -> URL {
        let directory = try Paths.temporaryDirectory()
        let result = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(segmentCount)",
                                                  "-c:v", "libx264", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
                                                  "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_playlist_type", "vod",
                                                  "-hls_segment_filename", directory.appendingPathComponent("seg%d.ts").path,
                                                  directory.appendingPathComponent("all.m3u8").path])
        try #require(result.status == 0, "\(result.stderr)")
        return directory
    }

    /// A live playlist of the last four of `published` segments, written whole at once.
    static func writeLivePlaylist(in directory: URL, published: Int, ended: Bool = false) throws {
        let first = max(0, published - 4)
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for index in first..<published { text += "#EXTINF:1.000000,\nseg\(index).ts\n" }
        if ended { text += "#EXT-X-ENDLIST\n" }
        try text.write(to: directory.appendingPathComponent("live.m3u8"), atomically: true, encoding: .utf8)
    }

    @Test func eachSegmentIsFetchedSoonAfterItIsListedAndNothingIsLost() async throws {
        let directory = try Self.segments()
        let expected = try PlaybackTests.WholePicturePacketsTests.ffprobePackets(directory.appendingPathComponent("all.m3u8").path)
        try #require(expected.count == Self.segmentCount * 25)
        try Self.writeLivePlaylist(in: directory, published: 3)
        let server = try StaticWebServer(root: directory, logsRequests: true)
        defer { server.stop() }

        // The server lists a segment a second, the first 0.3 s after the player's first
        // load: FFmpeg's own timer reloads a second after each load, 0.7 s after each
        // segment, and stays there (its reload interval is the segment's duration).
        let published = PublicationTimes()
        let publisher = Thread {
            let deadline = Date().addingTimeInterval(20)
            var firstLoad: Double?
            while firstLoad == nil, Date() < deadline {
                firstLoad = (try? server.requests())?.first { $0.path == "/live.m3u8" }?.time
                usleep(5_000)
            }
            guard let firstLoad else { return }
            for count in 4...Self.segmentCount {
                let due = firstLoad + 0.3 + Double(count - 4)
                let wait = due - Date().timeIntervalSince1970
                if wait > 0 { usleep(useconds_t(wait * 1e6)) }
                try? Self.writeLivePlaylist(in: directory, published: count)
                published.record(segment: count - 1, at: Date().timeIntervalSince1970)
            }
            usleep(1_000_000)
            try? Self.writeLivePlaylist(in: directory, published: Self.segmentCount, ended: true)
        }
        publisher.start()

        let ours = try PlaybackTests.WholePicturePacketsTests.reelPackets(server.url("live.m3u8"), options: DemuxOptions().forLiveHLS())

        #expect(ours.count == expected.count, "every packet once")
        for (index, pair) in zip(ours, expected).enumerated() where pair.0 != pair.1 {
            Issue.record("packet \(index): reel \(pair.0), ffprobe \(pair.1)")
            break
        }
        // Two reloads find the server's step (the first after a half-segment wait, the
        // second after waiting for the segment); from the third new segment on, each is
        // fetched within a poll or two of being listed.
        let fetches = try server.requests()
        var delays: [String] = []
        for segment in 6..<Self.segmentCount {
            let listed = try #require(published.time(of: segment), "segment \(segment) published")
            let fetched = try #require(fetches.first { $0.path == "/seg\(segment).ts" }?.time, "segment \(segment) fetched")
            delays.append(String(format: "seg%d %.3f s", segment, fetched - listed))
            #expect(fetched - listed < 0.25, "segment \(segment) fetched \(fetched - listed) s after it was listed")
        }
        print("live HLS fetch delays: \(delays.joined(separator: ", "))")
    }
}

/// When each segment was listed, written by the publishing thread and read by the test.
private final class PublicationTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Int: Double] = [:]

    func record(segment: Int, at time: Double) { lock.withLock { times[segment] = time } }
    func time(of segment: Int) -> Double? { lock.withLock { times[segment] } }
}
