import Foundation
import Testing
import ReelCore

@Suite struct MediaInfoCodingTests {
    @Test func streamKeysAreTheDocumentedOnes() throws {
        var stream = StreamDescription(index: 0, type: .video, codecName: "h264", timeBase: Rational(1, 90000))
        stream.width = 1920
        stream.height = 1080
        stream.pixelFormat = .yuv420p
        stream.colorMatrix = .bt709
        stream.colorRange = .limited
        stream.averageFrameRate = Rational(30000, 1001)
        stream.rotation = -90
        stream.disposition = ["default": true]
        let info = MediaInfo(format: FormatDescription(url: "x", name: "mp4", longName: nil, startTime: 0, duration: 1,
                                                       size: 10, bitRate: 80, streamCount: 1, tags: [:]),
                             chapters: [Chapter(id: 1, timeBase: Rational(1, 1000), start: 0, end: 500, tags: ["title": "A"])],
                             streams: [stream])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as! [String: Any]
        let streamJSON = (json["streams"] as! [[String: Any]])[0]
        #expect(streamJSON["codec_type"] as? String == "video")
        #expect(streamJSON["pix_fmt"] as? String == "yuv420p")
        #expect(streamJSON["color_space"] as? String == "bt709")
        #expect(streamJSON["color_range"] as? String == "tv")
        #expect(streamJSON["avg_frame_rate"] as? String == "30000/1001")
        #expect(streamJSON["rotation"] as? Double == -90)
        #expect(streamJSON["time_base"] as? String == "1/90000")
        #expect(streamJSON["sample_rate"] == nil)
        let chapter = (json["chapters"] as! [[String: Any]])[0]
        #expect(chapter["end_time"] as? Double == 0.5)
        #expect((json["format"] as! [String: Any])["nb_streams"] as? Int == 1)
        let decoded = try JSONDecoder().decode(MediaInfo.self, from: JSONEncoder().encode(info))
        #expect(decoded == info)
    }

    @Test func tableShowsTheEssentials() {
        var stream = StreamDescription(index: 0, type: .audio, codecName: "aac", timeBase: Rational(1, 48000))
        stream.sampleRate = 48000
        stream.channelLayout = "stereo"
        stream.sampleFormat = .fltp
        let info = MediaInfo(format: FormatDescription(url: "x.mp4", name: "mp4", longName: "MP4", startTime: 0, duration: 2,
                                                       size: nil, bitRate: 128_000, streamCount: 1, tags: [:]),
                             chapters: [], streams: [stream])
        let table = info.tableDescription
        #expect(table.contains("48000 Hz, stereo, fltp"))
        #expect(table.contains("128 kbit/s"))
        #expect(table.contains("2.000000 s"))
    }
}
