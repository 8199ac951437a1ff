import Foundation
import Reel
import Testing

/// The public API used in-process, as a Swift program would.
@Suite struct LibraryAPITests {
    @Test func probesAsynchronously() async throws {
        let info = try await MediaProbe.probe(Fixtures.named("hevc-aac.mp4").path)
        #expect(info.streams.map(\.type) == [.video, .audio])
        let video = try #require(info.preferredStream(of: .video))
        #expect(video.codecName == "hevc")
        #expect(video.width == 320 && video.height == 240)
        #expect(video.averageFrameRate == Rational(25, 1))
        #expect(info.format.duration.map { abs($0 - 2) < 0.1 } == true)
    }

    @Test func probeErrorsAreTyped() async throws {
        await #expect(throws: InputError.self) { try await MediaProbe.probe("/nonexistent.mp4") }
        do {
            _ = try await MediaProbe.probe("/nonexistent.mp4")
        } catch let error as InputError {
            #expect(error.reason == .notFound)
            #expect(error.operation == .open)
        }
    }

    @Test func framesAreViewsWithTheStreamsProperties() throws {
        let demuxer = try Demuxer(url: Fixtures.named("h264-full-range-bt709.mp4").path)
        let index = try #require(demuxer.bestStream(of: .video))
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index)
        var first: VideoFrame?
        while first == nil, let packet = try demuxer.readPacket() {
            guard packet.streamIndex == index else { continue }
            try decoder.decode(packet) { frame in
                if case .video(let video) = frame, first == nil { first = video }
            }
        }
        let frame = try #require(first)
        #expect(frame.width == 320 && frame.height == 240)
        #expect(frame.pixelFormat == .yuvj420p)
        #expect(frame.color.range == .full)
        #expect(frame.color.matrix == .bt709)
        #expect(frame.planes.count == 3)
        #expect(frame.planes[0].bytesPerRow >= 320)
        #expect(frame.planes[1].rowByteCount == 160 && frame.planes[1].rowCount == 120)
        #expect(frame.isKeyframe)
    }

    @Test func flushAfterSeekingBackDecodesTheSameFramesAgain() throws {
        let path = Fixtures.named("h264-main-bframes-aac.mov").path
        let demuxer = try Demuxer(url: path)
        let index = try #require(demuxer.bestStream(of: .video))
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, options: DecoderOptions(threadCount: 2))
        var hashes: [String] = []
        var md5 = FrameMD5()
        func decodeAll(into list: inout [String]) throws {
            while let packet = try demuxer.readPacket() {
                guard packet.streamIndex == index else { continue }
                try decoder.decode(packet) { if case .video(let v) = $0 { list.append(md5.hash(v)) } }
            }
            try decoder.drain { if case .video(let v) = $0 { list.append(md5.hash(v)) } }
        }
        try decodeAll(into: &hashes)
        try demuxer.seek(to: .zero)
        decoder.flush()
        var again: [String] = []
        try decodeAll(into: &again)
        #expect(hashes.count == 50)
        #expect(again == hashes)
    }

    @Test func packetsFromElsewhereAreCopiedIn() throws {
        // A packet whose bytes Swift owns (as a future MP4 reader's will) decodes the same.
        let path = Fixtures.named("h264-baseline-aac.mp4").path
        let demuxer = try Demuxer(url: path)
        let index = try #require(demuxer.bestStream(of: .video))
        let direct = try Decoder(demuxer: demuxer, streamIndex: index)
        let copied = try Decoder(demuxer: demuxer, streamIndex: index)
        var md5 = FrameMD5()
        var directHashes: [String] = [], copiedHashes: [String] = []
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == index else { continue }
            let storage = HeapStorage(byteCount: packet.data.count)
            storage.bytes.copyMemory(from: packet.data)
            var foreign = packet
            foreign.data = UnsafeRawBufferPointer(storage.bytes)
            foreign.owner = storage
            try direct.decode(packet) { if case .video(let v) = $0 { directHashes.append(md5.hash(v)) } }
            try copied.decode(foreign) { if case .video(let v) = $0 { copiedHashes.append(md5.hash(v)) } }
        }
        try direct.drain { if case .video(let v) = $0 { directHashes.append(md5.hash(v)) } }
        try copied.drain { if case .video(let v) = $0 { copiedHashes.append(md5.hash(v)) } }
        #expect(directHashes.count == 50)
        #expect(copiedHashes == directHashes)
    }

    @Test func aTruncatedInputIsAnErrorNotAnEnd() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.faststartMP4()))
        let path = try Paths.temporaryDirectory().appendingPathComponent("cut.mp4").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let demuxer = try Demuxer(url: path)
        var packets = 0
        do {
            while try demuxer.readPacket() != nil { packets += 1 }
            Issue.record("reading a truncated file ended without an error")
        } catch let error as InputError {
            #expect(error.reason == .truncated)
            #expect(error.detail?.contains("partial file") == true)
        }
        #expect(packets > 10, "the packets before the cut are delivered")
    }

    @Test func cancelFromAnotherThreadEndsABlockedOpen() throws {
        let server = try SilentServer()
        defer { server.stop() }
        // No timeout: only cancellation can end an open that waits on a silent peer.
        let interrupt = InterruptController(timeout: nil)
        let outcome = LockedValue<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let result = Result<Void, any Error> { _ = try Demuxer(url: "tcp://127.0.0.1:\(server.port)", interrupt: interrupt) }
            outcome.withLock { $0 = result }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(outcome.withLock { $0 } == nil, "the open should still be waiting")
        interrupt.cancel()
        #expect(done.wait(timeout: .now() + 5) == .success, "cancel did not end the open")
        guard case .failure(let error as InputError)? = outcome.withLock({ $0 }) else {
            Issue.record("expected an InputError, got \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(error.reason == .cancelled)
        #expect(error.description.hasSuffix(": cancelled"))
    }

    @Test(.timeLimit(.minutes(3))) func abandoningTheChecksumStreamStopsTheWork() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let stream = FrameChecksums.lines(of: "tcp://127.0.0.1:\(server.port)", options: .init(input: DemuxOptions(timeout: nil)))
        let (consuming, consumingStarted) = AsyncStream<Date>.makeStream()
        let task = Task {
            consumingStarted.yield(Date())
            for try await _ in stream {}
        }
        var serverEvents = server.events.makeAsyncIterator()
        guard case .accepted = await serverEvents.next() else { Issue.record("the checksums' open never connected"); return }
        let cancelled = Date()
        task.cancel()
        // The open has no timeout: without the cancellation it would wait for ever. What is
        // timed is the work's own end, the server seeing the connection closed, from the
        // cancellation or, when the cooperative pool ran the consuming task only later (a
        // loaded suite's blocking tests hold its threads), from then; the waits are the
        // events themselves, bounded by the test's time limit.
        var started = consuming.makeAsyncIterator()
        let from = max(cancelled, await started.next() ?? cancelled)
        guard case .hungUp(let closed) = await serverEvents.next() else { Issue.record("the connection stayed open after the cancellation"); return }
        let delay = closed.timeIntervalSince(from)
        print(String(format: "checksum stream abandoned: connection closed %.3f s after the cancellation took effect", delay))
        #expect(delay < 10)
        _ = await task.result
    }

    @Test func checksumLinesStreamAsync() async throws {
        var lines: [String] = []
        for try await line in FrameChecksums.lines(of: Fixtures.named("vp9-321x241.webm").path) { lines.append(line) }
        #expect(lines.contains("#dimensions 0: 321x241"))
        #expect(lines.filter { !$0.hasPrefix("#") }.count == 25)
    }

    /// Linking ReelRTP is what makes an SDP file Reel's receiver's: it registers at the
    /// player core's source seam when loaded; the core never imports it. An input it does
    /// not claim (a file, an SDP that is not there) is left to the engines.
    @Test func linkingReelRTPRegistersItsReceiverForSDPFiles() throws {
        let directory = try Paths.temporaryDirectory()
        let sdp = directory.appendingPathComponent("camera.sdp").path
        try "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=camera\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video 5004 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"
            .write(toFile: sdp, atomically: true, encoding: .utf8)
        #expect(PlaybackSources.provider(for: sdp) != nil)
        #expect(PlaybackSources.provider(for: directory.appendingPathComponent("absent.sdp").path) == nil)
        #expect(PlaybackSources.provider(for: Fixtures.named("hevc-aac.mp4").path) == nil)
    }
}
