import ReelCore
import Testing

@Suite struct MPRISStateTests {
    @Test func metadataNamesTheTrackItsLengthTitleAndURL() {
        var state = MPRISState()
        #expect(state.metadata == ["mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")], "nothing playing")
        state.url = "/media/clips/holiday.mkv"
        state.duration = 10.023
        state.trackNumber = 2
        #expect(state.metadata == [
            "mpris:trackid": .objectPath("/org/mpris/MediaPlayer2/Reel/Track/2"), "xesam:url": .string("file:///media/clips/holiday.mkv"),
            "xesam:title": .string("holiday.mkv"), "mpris:length": .int64(10_023_000),
        ])
        state.title = "Holiday"
        state.url = "rtsp://camera/stream"
        state.duration = nil
        #expect(state.metadata["xesam:title"] == .string("Holiday") && state.metadata["xesam:url"] == .string("rtsp://camera/stream"))
        #expect(state.metadata["mpris:length"] == nil, "a live input has no length")
    }

    @Test func onlyWhatChangedIsSignalled() {
        var before = MPRISState()
        before.url = "/a.mp4"
        before.playbackStatus = "Paused"
        var after = before
        #expect(after.changes(since: before).isEmpty)
        after.playbackStatus = "Playing"
        after.volume = 0.5
        #expect(after.changes(since: before) == ["PlaybackStatus": .string("Playing"), "Volume": .double(0.5)])
        #expect(after.properties["Position"] == nil, "Position is never signalled")
    }

    @Test func callsAreReadWithTheirArgumentsTypes() {
        let player = MPRISState.playerInterface
        #expect(MPRISCall(interface: player, method: "PlayPause", arguments: []) == .playPause)
        #expect(MPRISCall(interface: player, method: "Seek", arguments: [.int64(-2_500_000)]) == .seek(by: -2.5))
        #expect(MPRISCall(interface: player, method: "SetPosition", arguments: [.objectPath("/t/1"), .int64(5_000_000)])
            == .setPosition(trackID: "/t/1", seconds: 5))
        #expect(MPRISCall(interface: "org.mpris.MediaPlayer2", method: "Quit", arguments: []) == .quit)
        #expect(MPRISCall(interface: player, method: "Seek", arguments: [.string("5")]) == nil, "wrong argument type")
        #expect(MPRISCall(interface: player, method: "Quit", arguments: []) == nil, "Quit is the root interface's")
        #expect(MPRISCall(interface: player, method: "Play", arguments: [.bool(true)]) == nil)
    }
}
