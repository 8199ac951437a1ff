import Testing
@testable import ReelCore

@Suite struct FrameChecksumLogTests {
    @Test func rowsHaveTheMuxersColumnWidths() {
        // A line of `ffmpeg -f framemd5` output, copied from FFmpeg 5.1.
        #expect(FrameChecksumLog.row(pts: 3, duration: 1, size: 4608, hash: "07781b483f3c19b511ba1d5c58825d4f")
                == "0,          3,          3,        1,     4608, 07781b483f3c19b511ba1d5c58825d4f")
        #expect(FrameChecksumLog.row(pts: -1024, duration: 1024, size: 123456789, hash: "h")
                == "0,      -1024,      -1024,     1024, 123456789, h")
    }

    @Test func audioHeaderNamesThePCMCodec() {
        let header = FrameChecksumLog.header(for: .audio(timeBase: Rational(1, 44100), codecName: SampleFormat.fltp.pcmCodecName,
                                                         sampleRate: 44100, channelLayout: "mono"), software: "x")
        #expect(header.contains("#codec_id 0: pcm_f32le"))
        #expect(header.contains("#channel_layout_name 0: mono"))
        #expect(header.last == "#stream#, dts,        pts, duration,     size, hash")
    }
}

@Suite struct FrameChecksumClockTests {
    @Test func constantRateVideoCountsFrames() {
        var clock = FrameChecksumClock(videoTimeBase: Rational(1, 12800), frameRate: Rational(25, 1), startTime: 0)
        #expect(clock.outputTimeBase == Rational(1, 25))
        let ticks = (0..<5).map { clock.videoTick(pts: Int64($0) * 512, durationTicks: 512) }
        #expect(ticks == [0, 1, 2, 3, 4])
    }

    @Test func startTimeIsSubtracted() {
        // MPEG-TS starts at 1.4 s on a 90 kHz clock.
        var clock = FrameChecksumClock(videoTimeBase: Rational(1, 90000), frameRate: Rational(25, 1), startTime: 1_400_000)
        #expect(clock.videoTick(pts: 126_000, durationTicks: 3600) == 0)
        #expect(clock.videoTick(pts: 129_600, durationTicks: 3600) == 1)
    }

    @Test func aFrameFarBehindIsDropped() {
        var clock = FrameChecksumClock(videoTimeBase: Rational(1, 25), frameRate: Rational(25, 1), startTime: nil)
        #expect(clock.videoTick(pts: 5, durationTicks: 1) == 5)
        #expect(clock.videoTick(pts: 3, durationTicks: 1) == nil)
        #expect(clock.videoTick(pts: 6, durationTicks: 1) == 6)
    }

    @Test func audioStaysContiguousThroughCoarseTimestamps() {
        // Milliseconds (Matroska) cannot say where a 1024-sample frame at 44.1 kHz starts;
        // av_rescale_delta keeps the frames contiguous.
        var clock = FrameChecksumClock(audioTimeBase: Rational(1, 1000), sampleRate: 44100, startTime: 0)
        #expect(clock.audioTick(pts: 0, sampleCount: 1024) == 0)
        #expect(clock.audioTick(pts: 23, sampleCount: 1024) == 1024)
        #expect(clock.audioTick(pts: 46, sampleCount: 1024) == 2048)
        // A jump far beyond the tolerance resynchronises.
        #expect(clock.audioTick(pts: 1000, sampleCount: 1024) == 44100)
    }
}

@Suite struct AudioFrameTests {
    @Test func interleavesPlanarSamples() {
        let left: [Float] = [1, 2, 3]
        let right: [Float] = [-1, -2, -3]
        let storage = HeapStorage(byteCount: 0)
        left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in
                let frame = AudioFrame(sampleFormat: .fltp, sampleRate: 48000, channelCount: 2, channelLayout: "stereo",
                                       sampleCount: 3, planes: [l.baseAddress!, r.baseAddress!], pts: 0,
                                       timeBase: Rational(1, 48000), owner: storage)
                #expect(frame.interleavedByteCount == 24)
                var out = [Float](repeating: 0, count: 6)
                out.withUnsafeMutableBytes { frame.copyInterleaved(into: $0) }
                #expect(out == [1, -1, 2, -2, 3, -3])
            }
        }
    }

    @Test func sampleFormatsKnowTheirPCMCodecs() {
        #expect(SampleFormat.s16p.packed == .s16)
        #expect(SampleFormat.s16p.pcmCodecName == "pcm_s16le")
        #expect(SampleFormat.dblp.bytesPerSample == 8)
        #expect(SampleFormat.u8.isPlanar == false)
    }
}

@Suite struct VideoFrameTests {
    @Test func packedRowsSkipPadding() {
        // 3×2 luma with a 4-byte stride: the padding byte must not be hashed.
        let storage = HeapStorage(byteCount: 8)
        for (index, byte) in [1, 2, 3, 99, 4, 5, 6, 99].enumerated() { storage.bytes[index] = UInt8(byte) }
        let plane = PlaneView(baseAddress: UnsafeRawPointer(storage.bytes.baseAddress!), bytesPerRow: 4, rowByteCount: 3, rowCount: 2)
        let frame = VideoFrame(width: 3, height: 2, pixelFormat: PixelFormat("gray"), planes: [plane], color: ColorDescription(),
                               sampleAspectRatio: Rational(1, 1), pts: 0, duration: 1, timeBase: Rational(1, 25),
                               isKeyframe: true, owner: storage)
        var bytes: [UInt8] = []
        frame.forEachPackedRow { bytes += $0 }
        #expect(bytes == [1, 2, 3, 4, 5, 6])
        #expect(frame.packedByteCount == 6)
    }
}
