import Testing
@testable import ReelCore

@Suite struct TrackTests {
    static func stream(_ index: Int, _ type: MediaType, _ codec: String, language: String? = nil, title: String? = nil,
                       default isDefault: Bool = false, forced: Bool = false, coverArt: Bool = false) -> StreamDescription {
        var stream = StreamDescription(index: index, type: type, codecName: codec, timeBase: Rational(1, 1000))
        stream.language = language
        if let title { stream.tags["title"] = title }
        stream.disposition = ["default": isDefault, "forced": forced, "attached_pic": coverArt]
        return stream
    }

    let tracks = Track.tracks(of: MediaInfo(format: FormatDescription(url: "x.mkv", name: "matroska", longName: nil, startTime: 0, duration: 10,
                                                                      size: nil, bitRate: nil, streamCount: 7, tags: [:]),
                                            chapters: [], streams: [
        stream(0, .video, "h264", default: true),
        stream(1, .audio, "aac", language: "eng", title: "Main"),
        stream(2, .audio, "opus", language: "fre", default: true),
        stream(3, .subtitle, "subrip", language: "eng", forced: true),
        stream(4, .attachment, "ttf"),
        stream(5, .video, "mjpeg", coverArt: true),
        stream(6, .subtitle, "ass", language: "ger"),
    ]))

    @Test func tracksAreNumberedWithinTheirTypeAsMPVDoes() {
        #expect(tracks.map(\.id) == ["video-1", "audio-1", "audio-2", "subtitle-1", "subtitle-2"])
        #expect(tracks.map(\.streamIndex) == [0, 1, 2, 3, 6], "no attachment, no cover art")
        #expect(tracks[1].description == "Audio 1 eng 'Main' (aac)")
        #expect(tracks[2].description == "Audio 2 fre (opus) default")
        #expect(tracks[3].description == "Subtitle 1 eng (subrip) forced")
    }

    @Test func requestsChooseAsAIDAndALangDo() {
        #expect(TrackRequest.automatic().choose(.audio, among: tracks)?.streamIndex == 2, "the default")
        #expect(TrackRequest.automatic(languages: ["en"]).choose(.audio, among: tracks)?.streamIndex == 1, "en reaches eng")
        #expect(TrackRequest.automatic(languages: ["jpn", "fre", "eng"]).choose(.audio, among: tracks)?.streamIndex == 2, "the list's order")
        #expect(TrackRequest.automatic(languages: ["jpn"]).choose(.audio, among: tracks)?.streamIndex == 2, "no match: the default")
        #expect(TrackRequest.number(1).choose(.audio, among: tracks)?.streamIndex == 1)
        #expect(TrackRequest.number(3).choose(.audio, among: tracks) == nil)
        #expect(TrackRequest.none.choose(.audio, among: tracks) == nil)
        #expect(TrackRequest.automatic(languages: ["GER"]).choose(.subtitle, among: tracks)?.streamIndex == 6)
        #expect(TrackRequest.automatic().choose(.subtitle, among: tracks)?.streamIndex == 3, "no default: the first")
        #expect(TrackRequest(mpvTrackID: "no") == TrackRequest.none && TrackRequest(mpvTrackID: "2") == .number(2))
        #expect(TrackRequest(mpvTrackID: "0") == nil && TrackRequest(mpvTrackID: "two") == nil)
    }

    @Test func subtitlesShowOnlyWhenWantedAsInMPV() {
        let external = Track(type: .subtitle, number: 3, streamIndex: 0, codec: "subrip", title: "film.srt", file: "/films/film.srt")
        let unmarked = tracks.map { track -> Track in
            var track = track
            track.isForced = false
            return track
        }
        #expect(TrackRequest.automatic().chooseSubtitle(among: unmarked) == nil, "no language, nothing marked: none, unlike audio")
        #expect(TrackRequest.automatic().chooseSubtitle(among: tracks)?.streamIndex == 3, "the forced track")
        #expect(TrackRequest.automatic().chooseSubtitle(among: unmarked + [external]) == external, "a file loaded beside the video")
        #expect(TrackRequest.automatic(languages: ["ger", "en"]).chooseSubtitle(among: tracks + [external])?.streamIndex == 6)
        #expect(TrackRequest.number(2).chooseSubtitle(among: tracks)?.streamIndex == 6)
        #expect(TrackRequest.none.chooseSubtitle(among: tracks + [external]) == nil)
        #expect(external.description == "Subtitle 3 'film.srt' (subrip) external")
    }
}
