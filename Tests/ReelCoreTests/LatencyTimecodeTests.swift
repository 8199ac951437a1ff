import Testing
@testable import ReelCore

@Suite struct LatencyTimecodeTests {
    @Test func crc16MatchesItsCheckValue() {
        #expect(CRC16.ccittFalse(Array("123456789".utf8)) == 0x29B1)
    }

    @Test func cellsCarryTheTimeAndACheck() throws {
        let time: UInt64 = 0x2ABC_DEF0_1234 & (1 << 46 - 1)
        let cells = LatencyTimecode.cells(for: time)
        #expect(cells.count == 64 && cells[0] && !cells[1])
        #expect(LatencyTimecode.time(fromCells: cells) == time)
        // Any one cell flipped fails the check rather than giving another time.
        for index in 2..<64 {
            var damaged = cells
            damaged[index].toggle()
            #expect(LatencyTimecode.time(fromCells: damaged) == nil, "cell \(index)")
        }
    }

    @Test func aDrawnCodeReadsBackAtItsOwnSizeAndScaledWithNoise() throws {
        let time: UInt64 = 1_234_567_890_123
        let picture = try PixelBuffer(format: .i420, width: 1280, height: 720)
        for plane in picture.planes { for row in 0..<plane.rowCount { plane.row(row).update(repeating: 90, count: plane.rowByteCount) } }
        LatencyTimecode.draw(time, into: picture)
        let luma = picture.planes[0]
        #expect(LatencyTimecode.read(width: 1280, height: 720) { UnsafeRawBufferPointer(start: luma.row($0), count: 1280) } == time)
        // Halved (as a smaller variant would be), levels squeezed and noise added, as an encoder might.
        var generator = SeededGenerator(seed: 7)
        let half = (0..<360).map { row in
            (0..<640).map { column -> UInt8 in
                let level = Int(luma.row(row * 2)[column * 2]) * 3 / 4 + 30
                return UInt8(clamping: level + Int(generator.next() % 21) - 10)
            }
        }
        #expect(LatencyTimecode.read(width: 640, height: 360) { row in half[row].withUnsafeBytes { $0 } } == time)
    }

    @Test func aPictureWithoutACodeOrTooSmallIsUnreadable() throws {
        let flat = [UInt8](repeating: 128, count: 1280)
        #expect(LatencyTimecode.read(width: 1280, height: 720) { _ in flat.withUnsafeBytes { $0 } } == nil)
        #expect(LatencyTimecode.cellSize(width: 96, height: 96) == nil)
        #expect(LatencyTimecode.cellSize(width: 320, height: 240) == 10)
    }

    @Test func ageWrapsAroundTheModulus() {
        let modulus: UInt64 = 1 << 46
        #expect(LatencyTimecode.age(of: modulus - 1_000, at: 2_000) == 0.003)
        #expect(LatencyTimecode.age(of: 5_000, at: 2_000) == -0.003)
    }
}

@Suite struct LatencyMeterTests {
    @Test func percentilesAreNearestRank() {
        var meter = LatencyMeter()
        for age in 1...100 { meter.add(age: Double(age) / 1000) }
        meter.add(code: nil)
        let summary = meter.summary
        #expect(summary.pictures == 100 && summary.unreadable == 1)
        #expect(summary.p50 == 0.05 && summary.p95 == 0.095 && summary.max == 0.1 && summary.min == 0.001)
        #expect(summary.line == "p50 50.0 ms  p95 95.0 ms  max 100.0 ms  (100 pictures, 1 unreadable, 0 dropped)")
        #expect(LatencyMeter().summary.p50 == nil)
    }
}

extension LatencyMeterTests {
    @Test func theWarmupLeavesOutTheFirstSeconds() {
        var meter = LatencyMeter(warmup: 1)
        meter.add(code: 0, at: 10_000)
        meter.add(code: nil, at: 500_000)
        meter.add(code: 990_000, at: 1_010_000)
        #expect(meter.summary.pictures == 1 && meter.summary.unreadable == 0 && meter.summary.p50 == 0.02)
    }
}

extension LatencyMeterTests {
    /// A camera at 30 fps: three pictures never come (10, 11 and 50), one comes unreadable
    /// (70), one comes twice (80); the meter counts three dropped, not five or four.
    @Test func gapsInTheCaptureTimesAreDroppedPictures() {
        var meter = LatencyMeter()
        let interval: UInt64 = 33_333
        for index in UInt64(0)..<100 where ![10, 11, 50].contains(index) {
            let code = 1_000_000 + index * interval
            meter.add(code: index == 70 ? nil : code, at: code + 20_000)
            if index == 80 { meter.add(code: code, at: code + 53_000) }
        }
        let summary = meter.summary
        #expect(summary.pictures == 97 && summary.unreadable == 1 && summary.dropped == 3)
        #expect(summary.line.hasSuffix("(97 pictures, 1 unreadable, 3 dropped)"))
    }

    /// A camera at 30 fps on a loaded machine: picture 45 is captured 20 ms late, 46 on
    /// time (gaps of 1.6 and 0.4 intervals); 90 pictures of 90 came and none is dropped.
    /// Ten pictures later one never comes: one dropped. Pictures 19 and 59 late by 10 ms
    /// (a third of an interval), and the six after each of them left out but one: six
    /// dropped (a hunt run counted five, the late pictures' long gaps in the interval).
    @Test func aPictureCapturedLateIsNotADroppedOne() {
        func measure(skipping missing: Set<UInt64>, late: [UInt64: UInt64]) -> LatencySummary {
            var meter = LatencyMeter()
            // 30 fps in whole microseconds: 33 333 and 33 334 apart.
            for index in UInt64(0)..<90 where !missing.contains(index) {
                let code = 1_000_000 + (index * 1_000_000 + 15) / 30 + late[index, default: 0]
                meter.add(code: code, at: code + 30_000)
            }
            return meter.summary
        }
        let late = measure(skipping: [], late: [45: 20_000])
        #expect(late.pictures == 90 && late.dropped == 0, "\(late)")
        let lost = measure(skipping: [55], late: [45: 20_000])
        #expect(lost.pictures == 89 && lost.dropped == 1, "\(lost)")
        let thinned = measure(skipping: [20, 21, 22, 23, 24, 60], late: [19: 10_000, 59: 10_000])
        #expect(thinned.pictures == 84 && thinned.dropped == 6, "\(thinned)")
    }
}
