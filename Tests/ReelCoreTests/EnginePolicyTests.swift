import Foundation
import ReelCore
import Testing

/// Reel's rules for which engine plays a resource.
struct EnginePolicyTests {
    private let master = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=426x240
        low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=854x480
        mid/index.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="low/iframes.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720
        high/index.m3u8
        """

    @Test func anHLSMasterPlaylistWithSeveralVariantsGoesToGStreamer() {
        let decision = EnginePolicy.decide("http://example.com/live/master.m3u8?token=1", head: Data(master.utf8))
        #expect(decision.engine == .gstreamer)
        #expect(decision.reason.contains("3 variants"), "I-frame streams are not variants: \(decision.reason)")
    }

    /// A master says nothing of being live; its first variant's playlist does. Live, it
    /// stays with the engine that plays live; finished, it goes to the one that adapts.
    @Test func aLiveMasterPlaylistStaysWithFFmpegAndSaysWhy() {
        let live = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.000,\nladder_low-7.ts\n"
        let decision = EnginePolicy.decide("http://h/hls/ladder.m3u8", head: Data(master.utf8), firstVariantHead: Data(live.utf8))
        #expect(decision.engine == .ffmpeg && decision.reason.contains("live HLS master playlist with 3 variants"), "\(decision)")
        let finished = EnginePolicy.decide("http://h/hls/ladder.m3u8", head: Data(master.utf8), firstVariantHead: Data((live + "#EXT-X-ENDLIST\n").utf8))
        #expect(finished.engine == .gstreamer)
        #expect(EnginePolicy.decide("http://h/hls/ladder.m3u8", head: Data(master.utf8), firstVariantHead: Data("<html>".utf8)).engine == .gstreamer)
    }

    @Test func theFirstVariantIsFoundBesideItsMaster() {
        let head = Data(master.utf8)
        #expect(EnginePolicy.firstVariantURL(in: head, of: "http://example.com/live/master.m3u8?token=1") == "http://example.com/live/low/index.m3u8")
        #expect(EnginePolicy.firstVariantURL(in: head, of: "/srv/hls/master.m3u8") == "/srv/hls/low/index.m3u8")
        let absolute = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n\nhttps://cdn/a.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\n/b.m3u8\n"
        #expect(EnginePolicy.firstVariantURL(in: Data(absolute.utf8), of: "http://h/x/m.m3u8") == "https://cdn/a.m3u8")
        #expect(EnginePolicy.firstVariantURL(in: Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n".utf8), of: "http://h/m.m3u8") == nil,
                "one variant: nothing to decide")
    }

    @Test func aPlaylistsFirstURIIsItsFirstSegmentOrVariant() {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\n#EXTINF:2.0,\n  seg0.ts  \n#EXTINF:2.0,\nseg1.ts\n"
        #expect(EnginePolicy.firstURI(in: media, of: "https://h/live/index.m3u8?t=1") == "https://h/live/seg0.ts")
        #expect(EnginePolicy.firstURI(in: media, of: "/srv/live/index.m3u8") == "/srv/live/seg0.ts")
        #expect(EnginePolicy.firstURI(in: master, of: "http://h/m.m3u8") == "http://h/low/index.m3u8")
        #expect(EnginePolicy.firstURI(in: "#EXTM3U\n#EXT-X-ENDLIST\n", of: "http://h/m.m3u8") == nil)
    }

    @Test func aMediaPlaylistOrASingleVariantStaysWithFFmpeg() {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg0.ts\n#EXT-X-ENDLIST\n"
        #expect(EnginePolicy.decide("a.m3u8", head: Data(media.utf8)).engine == .ffmpeg)
        let single = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000\nlow.m3u8\n"
        let decision = EnginePolicy.decide("a.m3u8", head: Data(single.utf8))
        #expect(decision.engine == .ffmpeg && decision.reason.contains("one variant"))
        // Not a playlist at all, whatever its name says.
        #expect(EnginePolicy.decide("a.m3u8", head: Data("<html>".utf8)).engine == .ffmpeg)
    }

    @Test func aDASHManifestGoesToGStreamer() {
        let mpd = #"<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period/></MPD>"#
        #expect(EnginePolicy.decide("https://cdn/x/stream.mpd", head: Data(mpd.utf8)).engine == .gstreamer)
        #expect(EnginePolicy.decide("x.mpd", head: Data("<MPDX/>".utf8)).engine == .ffmpeg)
    }

    @Test func anSDPAndEverythingElseGoToFFmpeg() {
        #expect(EnginePolicy.decide("/tmp/camera.sdp").engine == .ffmpeg)
        #expect(EnginePolicy.decide("/tmp/camera.sdp").reason.contains("RTP receiver"))
        #expect(EnginePolicy.decide("clip.mp4").engine == .ffmpeg)
        #expect(EnginePolicy.decide("rtmp://127.0.0.1/live/x").engine == .ffmpeg)
    }

    @Test func onlyManifestsAreReadBeforeDeciding() {
        #expect(EnginePolicy.needsHead("http://h/a/master.m3u8?x=1"))
        #expect(EnginePolicy.needsHead("/tmp/list.M3U8"))
        #expect(EnginePolicy.needsHead("https://h/s.mpd"))
        #expect(!EnginePolicy.needsHead("clip.mp4"))
        #expect(!EnginePolicy.needsHead("http://h/video.mp4?name=a.m3u8"))
    }

    @Test func aHeightCapBecomesTheBitRateOfTheLargestVariantThatFits() {
        let variants = EnginePolicy.hlsVariants(master)
        #expect(variants.map(\.bandwidth) == [400_000, 1_200_000, 3_000_000])
        #expect(variants.map(\.height) == [240, 480, 720])
        #expect(EnginePolicy.bitrateCap(forHeight: 480, variants: variants) == 1_200_000)
        #expect(EnginePolicy.bitrateCap(forHeight: 1080, variants: variants) == 3_000_000)
        #expect(EnginePolicy.bitrateCap(forHeight: 144, variants: variants) == 400_000, "none fits: the lowest")
        #expect(EnginePolicy.bitrateCap(forHeight: 480, variants: [(800_000, nil)]) == nil)
        let quoted = "#EXTM3U\n#EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=900,CODECS=\"avc1.64001f,mp4a.40.2\",BANDWIDTH=1000,RESOLUTION=640x360\nv.m3u8\n"
        #expect(EnginePolicy.hlsVariants(quoted).map(\.bandwidth) == [1000] && EnginePolicy.hlsVariants(quoted).map(\.height) == [360])
    }

    @Test func aDASHManifestsRepresentationsAreItsVariants() {
        let manifest = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static">
              <Period><AdaptationSet id="0" contentType="video" maxHeight="720">
                <Representation id="0" mimeType="video/mp4" bandwidth="438404" width="426" height="240">
                <Representation id="1" bandwidth="1272612" width="854"
                    height="480"/>
                <RepresentationIndex sourceURL="ignored"/>
                <Representation id="2" bandwidth="3280068" width="1280" height="720"></Representation>
              </AdaptationSet><AdaptationSet contentType="audio"><Representation id="3" bandwidth="128000"/></AdaptationSet></Period>
            </MPD>
            """
        let variants = EnginePolicy.variants(manifest)
        #expect(variants.map(\.bandwidth) == [438_404, 1_272_612, 3_280_068, 128_000])
        #expect(variants.map(\.height) == [240, 480, 720, nil])
        #expect(EnginePolicy.bitrateCap(forHeight: 480, variants: variants) == 1_272_612)
        #expect(EnginePolicy.variants(master).count == 3, "an HLS playlist's variants")
    }
}
