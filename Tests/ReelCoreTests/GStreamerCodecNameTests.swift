import ReelCore
import Testing

/// GStreamer's caps names read as FFmpeg's codec names.
struct GStreamerCodecNameTests {
    @Test(arguments: [
        ("video/x-h264", nil, nil, "h264"), ("video/x-h265", nil, nil, "hevc"), ("video/x-vp9", nil, nil, "vp9"),
        ("video/mpeg", 4, nil, "mpeg4"), ("video/mpeg", 2, nil, "mpeg2video"), ("audio/mpeg", 4, nil, "aac"),
        ("audio/mpeg", 2, nil, "aac"), ("audio/mpeg", 1, 3, "mp3"), ("audio/mpeg", 1, 2, "mp2"),
        ("audio/x-opus", nil, nil, "opus"), ("audio/x-wavpack", nil, nil, "wavpack"), ("text/x-raw", nil, nil, "raw"),
    ] as [(String, Int?, Int?, String)])
    func capsNamesReadAsFFmpegsCodecNames(mediaType: String, mpegVersion: Int?, layer: Int?, expected: String) {
        #expect(GStreamerCodecName.ffmpegName(mediaType: mediaType, mpegVersion: mpegVersion, layer: layer) == expected)
    }
}
