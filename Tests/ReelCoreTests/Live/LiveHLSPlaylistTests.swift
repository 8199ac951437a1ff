import Testing
@testable import ReelCore

@Suite struct LiveHLSPlaylistTests {
    /// What nginx-rtmp's `hls` directives write for 1 s fragments.
    private let nginx = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-MEDIA-SEQUENCE:7
        #EXT-X-TARGETDURATION:1
        #EXTINF:1.000,
        cam-7.ts
        #EXTINF:1.000,
        cam-8.ts
        #EXTINF:0.967,
        cam-9.ts

        """

    @Test func readsTheSegmentsAndTheNewestDuration() throws {
        let playlist = try #require(LiveHLSPlaylist(nginx))
        #expect(playlist.segmentNames == ["cam-7.ts", "cam-8.ts", "cam-9.ts"])
        #expect(playlist.newestSegmentDuration == 0.967)
        #expect(playlist.targetDuration == 1)
        #expect(!playlist.hasEnded)
    }

    @Test func aMasterPlaylistOrOtherTextIsNoMediaPlaylist() {
        #expect(LiveHLSPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow.m3u8\n") == nil)
        #expect(LiveHLSPlaylist("<html></html>") == nil)
        #expect(LiveHLSPlaylist("") == nil)
    }

    /// A duration that is no length would time the next reload by it: such a segment is
    /// left out, as a line without a duration is.
    @Test func aSegmentWithoutALengthIsLeftOut() throws {
        let text = "#EXTM3U\n#EXTINF:nan,\na.ts\n#EXTINF:inf,\nb.ts\n#EXTINF:-1,\nc.ts\n#EXTINF:1.0,\nd.ts\n"
        let playlist = try #require(LiveHLSPlaylist(text))
        #expect(playlist.segmentNames == ["d.ts"] && playlist.segmentDurations == [1.0])
        #expect(playlist.reloadDuration(afterWaiting: false).map { $0.isFinite && $0 > 0 } == true)
    }

    @Test func theEndListEndsIt() throws {
        #expect(try #require(LiveHLSPlaylist(nginx + "#EXT-X-ENDLIST\n")).hasEnded)
    }

    @Test func aSegmentIsNewUntilTheDemuxerOpenedIt() throws {
        let playlist = try #require(LiveHLSPlaylist(nginx))
        #expect(playlist.hasNewSegment(besides: ["cam-7.ts", "cam-8.ts"]))
        #expect(!playlist.hasNewSegment(besides: ["cam-8.ts", "cam-9.ts"]))
        #expect(!(try #require(LiveHLSPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:2\n"))).hasNewSegment(besides: []), "no segment yet")
    }

    @Test func aSegmentsNameIsItsPathsLastComponent() {
        #expect(LiveHLSPlaylist.name(ofURI: "cam-9.ts") == "cam-9.ts")
        #expect(LiveHLSPlaylist.name(ofURI: "http://127.0.0.1:8080/hls/cam-9.ts") == "cam-9.ts")
        #expect(LiveHLSPlaylist.name(ofURI: "crypto+https://cdn.example/a/b/seg9.ts?token=x#t") == "seg9.ts")
        #expect(LiveHLSPlaylist.name(ofURI: "../media/9.m4s?part=1") == "9.m4s")
    }

    @Test func theNewestDurationIsSetAndNothingElse() throws {
        let set = LiveHLSPlaylist.settingNewestSegmentDuration(of: nginx, to: 0.767)
        #expect(set == nginx.replacingOccurrences(of: "#EXTINF:0.967,", with: "#EXTINF:0.767,"))
        #expect(try #require(LiveHLSPlaylist(set)).newestSegmentDuration == 0.767)
        #expect(LiveHLSPlaylist.settingNewestSegmentDuration(of: "#EXTM3U\n#EXTINF:1.5,title\na.ts\n", to: 0.15) == "#EXTM3U\n#EXTINF:0.150,title\na.ts\n")
        #expect(LiveHLSPlaylist.settingNewestSegmentDuration(of: "#EXTM3U\n", to: 0.2) == "#EXTM3U\n")
    }

    @Test func theNextReloadComesEarlyByAFifthOnceInStepAndByHalfBefore() throws {
        let steady = try #require(LiveHLSPlaylist(nginx))
        #expect(abs(try #require(steady.reloadDuration(afterWaiting: true)) - 0.767) < 1e-9, "0.967 less 0.2")
        #expect(abs(try #require(steady.reloadDuration(afterWaiting: false)) - 0.4835) < 1e-9, "half of 0.967")
        // One long segment (a late keyframe) does not delay the next reload: the median does.
        let long = try #require(LiveHLSPlaylist(nginx.replacingOccurrences(of: "#EXTINF:0.967,", with: "#EXTINF:1.667,")))
        #expect(abs(try #require(long.reloadDuration(afterWaiting: true)) - 0.8) < 1e-9)
        // Six-second segments: half a second early.
        let six = try #require(LiveHLSPlaylist("#EXTM3U\n#EXTINF:6.0,\na.ts\n#EXTINF:6.0,\nb.ts\n"))
        #expect(six.reloadDuration(afterWaiting: true) == 5.5)
        #expect(try #require(LiveHLSPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:2\n")).reloadDuration(afterWaiting: true) == nil)
    }

    @Test func aMediaPlaylistWithoutAnEndIsLive() {
        #expect(LiveHLSPlaylist.isLiveMediaPlaylist(nginx))
        #expect(!LiveHLSPlaylist.isLiveMediaPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"), "a master says nothing")
        #expect(!LiveHLSPlaylist.isLiveMediaPlaylist(nginx + "#EXT-X-ENDLIST\n"))
        #expect(!LiveHLSPlaylist.isLiveMediaPlaylist("#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1,\na.ts\n"))
        #expect(!LiveHLSPlaylist.isLiveMediaPlaylist("not a playlist"))
    }
}
