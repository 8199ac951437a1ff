import Testing
@testable import ReelCore

@Suite struct LiveCatchUpTests {
    private let policy = LiveLatency(target: 0.3, slack: 0.1, catchUpRate: 1.1, jumpAbove: 4)

    /// Feeds `latency(t)` every 50 ms from `from` to `to` and returns the actions with their times.
    private func run(_ catchUp: inout LiveCatchUp, from: Double, to: Double, _ latency: (Double) -> Double) -> [(Double, LiveCatchUp.Action)] {
        var actions: [(Double, LiveCatchUp.Action)] = []
        var now = from
        while now < to {
            if let action = catchUp.observe(latency: latency(now), at: now) { actions.append((now, action)) }
            now += 0.05
        }
        return actions
    }

    @Test func theFirstPlayJumpsOverTheOpeningsBacklogOnly() {
        var catchUp = LiveCatchUp(policy: policy)
        #expect(catchUp.observe(latency: 1.2, at: 0) == .jump)
        #expect(catchUp.observe(latency: 0.35, at: 0.05) == nil, "on target after the jump")
        var onTarget = LiveCatchUp(policy: policy)
        #expect(onTarget.observe(latency: 0.38, at: 0) == nil, "within the slack: no jump")
    }

    @Test func catchesUpOnlyWhenTheLatencyStaysAboveTargetPlusSlackForASecond() {
        var catchUp = LiveCatchUp(policy: policy)
        _ = catchUp.observe(latency: 0.3, at: 0)
        // One late burst (a packet arrives 150 ms late) is not a backlog.
        let burst = run(&catchUp, from: 0.05, to: 3) { $0 > 1 && $0 < 1.3 ? 0.6 : 0.32 }
        #expect(burst.isEmpty)
        // Paused 3 s: 3.3 s behind, losing 0.1 s a second once at 1.1×.
        var rate = 1.0
        var latency = 3.3
        var actions: [(Double, LiveCatchUp.Action)] = []
        var now = 3.0
        while now < 60 {
            if let action = catchUp.observe(latency: latency, at: now) {
                actions.append((now, action))
                if case .catchUp(let newRate) = action { rate = newRate }
                if action == .backOnTarget { rate = 1 }
            }
            latency -= (rate - 1) * 0.05
            now += 0.05
        }
        #expect(actions.count == 2)
        #expect(actions.first.map { $0.1 == .catchUp(rate: 1.1) && $0.0 < 4.1 } ?? false, "\(actions)")
        #expect(actions.last.map { $0.1 == .backOnTarget && $0.0 < 36 } ?? false, "\(actions)")
        #expect(latency <= 0.3 && latency > 0.29)
    }

    @Test func jumpsBeyondTheBoundAndAfterAPauseMeasuresAnew() {
        var catchUp = LiveCatchUp(policy: policy)
        _ = catchUp.observe(latency: 0.3, at: 0)
        var actions: [(Double, LiveCatchUp.Action)] = []
        var latency = 5.0
        for tick in 1..<50 {
            let now = Double(tick) * 0.05
            if let action = catchUp.observe(latency: latency, at: now) {
                actions.append((now, action))
                latency = 0.3
            }
        }
        #expect(actions.map(\.1) == [.jump], "\(actions)")
        #expect(actions.first.map { $0.0 > 0.9 && $0.0 < 1.15 } ?? false, "\(actions)")
        catchUp.restart()
        #expect(catchUp.observe(latency: 6, at: 10) == nil, "one sample after a pause is not yet a second's floor")
        #expect(!catchUp.isCatchingUp)
    }
}

@Suite struct LiveInputsTests {
    @Test func liveByProtocolOrByAMissingDurationOverTheNetwork() {
        for url in ["rtmp://h/app/key", "RTSP://cam/stream", "srt://127.0.0.1:9000?mode=caller", "udp://@:1234", "rtp://239.0.0.1:5004", "camera.sdp"] {
            #expect(LiveInputs.isLive(url: url), "\(url)")
            #expect(LiveInputs.isLive(url: url, duration: 10), "\(url) is live whatever it says")
        }
        #expect(LiveInputs.isLive(url: "https://h/live.m3u8", duration: nil, size: 512, format: "hls"))
        #expect(LiveInputs.isLive(url: "hls+http://h/live.m3u8", duration: nil, size: 512, format: "hls"))
        #expect(LiveInputs.isLive(url: "http://h/stream.ts", duration: nil, size: nil, format: "mpegts"), "endless: no size")
        #expect(!LiveInputs.isLive(url: "http://h/file.ts", duration: nil, size: 1_000_000, format: "mpegts"), "a file served with its size")
        #expect(!LiveInputs.isLive(url: "https://h/vod.m3u8", duration: 600))
        #expect(!LiveInputs.isLive(url: "https://h/live.m3u8"), "HTTP is known live only once opened")
        #expect(!LiveInputs.isLive(url: "clip.h264", duration: nil), "a local file without a duration is not live")
        #expect(!LiveInputs.isLive(url: "/tmp/my rtmp://notes.txt", duration: nil))
    }
}

@Suite struct WAVWriterTests {
    @Test func headerOfAFloatWAVAsFFmpegWritesIt() {
        let header = WAVWriter.header(sampleRate: 48000, channels: 2, dataBytes: 3840)
        #expect(header.count == 58)
        #expect(Array(header[0..<4]) == Array("RIFF".utf8) && Array(header[8..<16]) == Array("WAVEfmt ".utf8))
        func u32(_ at: Int) -> Int { Int(header[at]) | Int(header[at + 1]) << 8 | Int(header[at + 2]) << 16 | Int(header[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(header[at]) | Int(header[at + 1]) << 8 }
        #expect(u32(4) == 58 - 8 + 3840, "RIFF size: the file less 8")
        #expect(u16(20) == 3 && u16(22) == 2 && u32(24) == 48000 && u32(28) == 384_000 && u16(32) == 8 && u16(34) == 32)
        #expect(Array(header[38..<42]) == Array("fact".utf8) && u32(46) == 480)
        #expect(Array(header[50..<54]) == Array("data".utf8) && u32(54) == 3840)
    }
}

@Suite struct ReconnectScheduleTests {
    @Test func backsOffFromAQuarterSecondToFourAndStopsAtTheLimit() {
        #expect((1...7).map(ReconnectSchedule.delay(before:)) == [0.25, 0.5, 1, 2, 4, 4, 4])
        #expect(ReconnectSchedule.delay(before: 1_000) == 4, "no overflow")
        var schedule = ReconnectSchedule(limit: 30)
        var elapsed = 0.0
        var waits: [Double] = []
        while let wait = schedule.nextWait(elapsed: elapsed) {
            waits.append(wait)
            elapsed += wait + 0.5   // each attempt fails after half a second
        }
        #expect(waits == [0.25, 0.5, 1, 2, 4, 4, 4, 4, 4], "\(waits)")
        #expect(schedule.attempts == 9 && elapsed <= 30 + 4.5)
        var off = ReconnectSchedule(limit: 0)
        #expect(off.nextWait(elapsed: 0) == nil && off.attempts == 0, "0: no reconnect")
    }
}

@Suite struct RecordingNamesTests {
    @Test func numbersSegmentsAndTheFilesAfterAReconnect() {
        #expect(RecordingNames.path("cam.mkv", index: 0, segmented: false) == "cam.mkv")
        #expect(RecordingNames.path("cam.mkv", index: 1, segmented: false) == "cam-001.mkv")
        #expect(RecordingNames.path("/rec/cam.v1.mp4", index: 0, segmented: true) == "/rec/cam.v1-000.mp4")
        #expect(RecordingNames.path("dir.d/cam", index: 12, segmented: true) == "dir.d/cam-012")
        #expect(RecordingNames.path(".hidden", index: 1_234, segmented: true) == ".hidden-1234")
    }
}

@Suite struct LiveFramePhaseTests {
    /// Shows 30 pictures a second from `from` for `seconds`, each having waited `wait(i)`;
    /// returns the advances asked for with their times.
    private func run(_ phase: inout LiveFramePhase, from: Double = 0, seconds: Double, wait: (Int) -> Double) -> [(time: Double, advance: Double)] {
        var advances: [(Double, Double)] = []
        var index = 0
        while Double(index) / 30 <= seconds {
            let now = from + Double(index) / 30
            if let advance = phase.shown(waited: wait(index), at: now) { advances.append((now, advance)) }
            index += 1
        }
        return advances
    }

    @Test func picturesThatAllWaitMoveTheScheduleByWhatNineInTenWaited() {
        var phase = LiveFramePhase()
        // The first picture's phase: every picture after it waits 30 to 36 ms; nine in ten
        // wait 30 ms or more, so the schedule moves by 30 ms less the display's 1 ms.
        let advances = run(&phase, seconds: 2.5) { 0.030 + Double($0 % 7) * 0.001 }
        #expect(advances.count == 2 && advances.allSatisfy { abs($0.advance - 0.029) < 1e-9 }, "\(advances)")
        #expect(advances.first.map { $0.time >= 1 } == true, "a whole second is watched first")
    }

    @Test func aLateKeyframeEachSecondDoesNotHoldTheOthersBack() {
        var phase = LiveFramePhase()
        // One picture in 30 (the keyframe) comes 15 ms later than the rest.
        let advances = run(&phase, seconds: 2.5) { $0 % 30 == 0 ? 0 : 0.017 }
        #expect(advances.count == 2 && advances.allSatisfy { abs($0.advance - 0.016) < 1e-9 }, "\(advances)")
    }

    @Test func picturesThatOftenArriveOnTheirTimeHoldTheSchedule() {
        var phase = LiveFramePhase()
        // Jitter: one picture in five is late (shown at once, no wait); moving earlier
        // would make more of them late.
        #expect(run(&phase, seconds: 3) { $0 % 5 == 2 ? 0 : 0.02 }.isEmpty)
        var settled = LiveFramePhase()
        #expect(run(&settled, seconds: 3) { _ in 0.0015 }.isEmpty, "within the display's own timing")
    }

    @Test func tooFewPicturesOrARestartSayNothing() {
        var phase = LiveFramePhase()
        var sparse: [Double?] = []
        for second in 0..<4 { sparse.append(phase.shown(waited: 0.05, at: Double(second) * 0.5)) }
        #expect(sparse.allSatisfy { $0 == nil }, "two pictures a second")
        var restarted = LiveFramePhase()
        _ = run(&restarted, seconds: 0.9) { _ in 0.03 }
        restarted.restart()
        #expect(run(&restarted, from: 0.95, seconds: 0.9) { _ in 0.03 }.isEmpty, "the window starts again after a restart")
    }
}
