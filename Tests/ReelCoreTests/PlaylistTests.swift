import Foundation
import ReelCore
import Testing

@Suite struct PlaylistTests {
    private func steps(_ playlist: inout Playlist, ends: Int) -> [Playlist.Step] {
        (0..<ends).map { _ in playlist.itemEnded() }
    }

    @Test func playsEachItemOnceAndFinishes() throws {
        var playlist = try #require(Playlist(["a", "b", "c"]))
        #expect(playlist.current == "a")
        #expect(steps(&playlist, ends: 3) == [.play(1), .play(2), .finish])
    }

    @Test func loopFileReplaysEachItemThatManyMoreTimes() throws {
        // mpv's --loop-file=1: every item plays twice.
        var playlist = try #require(Playlist(["a", "b"], loopFile: .times(1)))
        #expect(steps(&playlist, ends: 4) == [.replay, .play(1), .replay, .finish])
    }

    @Test func loopPlaylistCountsWholePasses() throws {
        // mpv's --loop-playlist=2 plays the list twice; 1 (the default) once.
        var twice = try #require(Playlist(["a", "b"], loopPlaylist: .times(2)))
        #expect(steps(&twice, ends: 4) == [.play(1), .play(0), .play(1), .finish])
        var forever = try #require(Playlist(["a"], loopPlaylist: .forever))
        #expect(steps(&forever, ends: 3) == [.play(0), .play(0), .play(0)])
    }

    @Test func movingStopsAtTheEndsUnlessTheListLoops() throws {
        var playlist = try #require(Playlist(["a", "b", "c"]))
        #expect(playlist.move(by: -1) == nil)
        #expect(playlist.move(by: 2) == 2 && playlist.current == "c")
        #expect(playlist.move(by: 1) == nil && playlist.index == 2)
        var looping = try #require(Playlist(["a", "b", "c"], loopPlaylist: .forever))
        #expect(looping.move(by: -1) == 2)
        #expect(looping.move(by: 1) == 0)
        // Found by the fuzzer: an offset near Int's ends overflowed.
        #expect(playlist.move(by: .max) == nil && playlist.move(by: .min) == nil)
        #expect(looping.move(by: .max) == Int.max % 3 && looping.move(by: .min) == (Int.max % 3 + Int.min % 3 + 3) % 3)
    }

    @Test func aMoveStartsTheItemsLoopsAfresh() throws {
        var playlist = try #require(Playlist(["a", "b"], loopFile: .times(1)))
        #expect(playlist.itemEnded() == .replay)
        #expect(playlist.move(by: 1) == 1)
        #expect(playlist.itemEnded() == .replay)
        #expect(playlist.itemEnded() == .finish)
    }

    @Test func failedItemsAreSkippedNotReplayedAndAllFailingEndsALoop() throws {
        var playlist = try #require(Playlist(["a", "b", "c"], loopFile: .forever, loopPlaylist: .forever))
        #expect(playlist.itemFailed() == .play(1))
        #expect(playlist.itemFailed() == .play(2))
        #expect(playlist.itemFailed() == .finish, "three failures in a row of three items")
        var once = try #require(Playlist(["a", "b"]))
        #expect(once.itemFailed() == .play(1))
        #expect(once.itemEnded() == .finish)
    }

    @Test func anEmptyListIsNone() {
        #expect(Playlist([]) == nil)
    }

    @Test func loopCountsParseAsMpvSpellsThem() {
        #expect(LoopCount(parsing: "inf") == .forever)
        #expect(LoopCount(parsing: "yes") == .forever)
        #expect(LoopCount(parsing: "no") == .times(0))
        #expect(LoopCount(parsing: "3") == .times(3))
        #expect(LoopCount(parsing: "-1") == nil)
        #expect(LoopCount(parsing: "two") == nil)
    }
}

@Suite struct PlaylistFileTests {
    @Test func readsM3UEntriesSkippingTagsAndResolvingRelativeOnes() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:10,First\r\nfirst.mp4\r\n\r\n/abs/second.mkv\r\nhttp://host/third.ts\r\nsub/fourth.webm\r\nfile:///tmp/a%20b.mp4\n"
        let entries = try PlaylistFile.entries(in: text, baseDirectory: "/media/lists")
        #expect(entries == ["/media/lists/first.mp4", "/abs/second.mkv", "http://host/third.ts", "/media/lists/sub/fourth.webm", "/tmp/a b.mp4"])
        #expect(try PlaylistFile.entries(in: "a.mp4\nb.mp4", baseDirectory: "") == ["a.mp4", "b.mp4"])
    }

    /// Found by the fuzzer: `file://name` has a host and no path, and became an empty entry.
    @Test func aFileURLWithoutAPathIsKeptAsWritten() throws {
        #expect(try PlaylistFile.entries(in: "file://l\nfile://a\u{3}b\nfile:///a.mp4", baseDirectory: "/x") == ["file://l", "file://a\u{3}b", "/a.mp4"])
    }

    /// Found by the fuzzer: `/` and a combining mark make one character, so `hasPrefix("/")`
    /// took an absolute entry for a relative one.
    @Test func anEntryFromTheRootStaysSoWhateverFollowsTheSlash() throws {
        #expect(try PlaylistFile.entries(in: "/\u{35F}T\n#\u{35F} comment\nb", baseDirectory: "/x") == ["/\u{35F}T", "/x/b"])
    }

    @Test func readsPLSEntriesInTheirNumbersOrder() throws {
        let text = "[playlist]\nFile2=two.mp3\nTitle2=Two\nFile1=rtsp://cam/1\nNumberOfEntries=2\nVersion=2\n"
        #expect(try PlaylistFile.entries(in: text, baseDirectory: "/x") == ["rtsp://cam/1", "/x/two.mp3"])
    }

    @Test func anHLSPlaylistIsOneStreamNotAList() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-hls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("index.m3u8").path
        try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try PlaylistFile.entries(atPath: path) == [path])
    }

    @Test func refusesFilesThatAreNoPlaylists() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-pls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.m3u").path
        try "#EXTM3U\n# nothing\n".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(throws: PlaylistFileError.empty(empty)) { try PlaylistFile.entries(atPath: empty) }
        let huge = directory.appendingPathComponent("huge.m3u").path
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: UInt64(PlaylistFile.maximumBytes + 1))
        try handle.close()
        #expect(throws: PlaylistFileError.tooLarge(huge, limit: PlaylistFile.maximumBytes)) { try PlaylistFile.entries(atPath: huge) }
        let binary = directory.appendingPathComponent("video.m3u").path
        FileManager.default.createFile(atPath: binary, contents: Data([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x0A, 0x41]))
        #expect(throws: PlaylistFileError.notText(binary)) { try PlaylistFile.entries(atPath: binary) }
        let missing = directory.appendingPathComponent("missing.m3u").path
        #expect(throws: PlaylistFileError.unreadable(missing)) { try PlaylistFile.entries(atPath: missing) }
        let many = String(repeating: "a.mp4\n", count: PlaylistFile.maximumEntries + 1)
        #expect(throws: PlaylistFileError.tooManyEntries(limit: PlaylistFile.maximumEntries)) { try PlaylistFile.entries(in: many, baseDirectory: "") }
    }
}
