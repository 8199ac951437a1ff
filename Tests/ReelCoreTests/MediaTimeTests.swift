import Testing
@testable import ReelCore

@Suite struct MediaTimeTests {
    @Test func addsAcrossTimescalesExactly() {
        let a = MediaTime(value: 1, timescale: 3)
        let b = MediaTime(value: 1, timescale: 6)
        let sum = a + b
        #expect(sum == MediaTime(value: 1, timescale: 2))
        #expect(sum.timescale == 6)
        #expect(sum.value == 3)
    }

    @Test func subtractsToNegative() {
        let difference = MediaTime(value: 1001, timescale: 30000) - MediaTime(value: 1, timescale: 25)
        #expect(difference == MediaTime(value: 1001 - 1200, timescale: 30000))
        #expect(difference < .zero)
    }

    @Test func comparesWithoutOverflow() {
        let big = MediaTime(value: .max / 2, timescale: 90000)
        let bigger = MediaTime(value: .max / 2 + 1, timescale: 90000)
        #expect(big < bigger)
        #expect(MediaTime(value: .max, timescale: 1) > MediaTime(value: .max, timescale: 2))
    }

    @Test func equalTimesHashEqually() {
        var set = Set<MediaTime>()
        set.insert(MediaTime(value: 1, timescale: 2))
        set.insert(MediaTime(value: 45000, timescale: 90000))
        #expect(set.count == 1)
    }

    @Test func convertsWithFFmpegRounding() {
        // av_rescale rounds halves away from zero.
        #expect(MediaTime(value: 1, timescale: 2).converted(to: 1).value == 1)
        #expect(MediaTime(value: -1, timescale: 2).converted(to: 1).value == -1)
        #expect(MediaTime(value: 3, timescale: 2).converted(to: 1, rounding: .down).value == 1)
        #expect(MediaTime(value: -3, timescale: 2).converted(to: 1, rounding: .down).value == -2)
        #expect(MediaTime(value: 5, timescale: 2).converted(to: 1, rounding: .toNearestOrEven).value == 2)
        #expect(MediaTime(value: 1001, timescale: 30000).converted(to: 90000).value == 3003)
    }

    @Test func roundTripsTicksOfTimeBases() throws {
        let timeBase = Rational(1001, 30000)
        let time = try #require(MediaTime(ticks: 7, timeBase: timeBase))
        #expect(time == MediaTime(value: 7007, timescale: 30000))
        #expect(time.ticks(in: timeBase) == 7)
        #expect(time.ticks(in: Rational(1, 90000)) == 21021)
        #expect(MediaTime(ticks: 1, timeBase: Rational(0, 1)) == nil)
    }

    @Test func saturatesInsteadOfTrapping() {
        let huge = MediaTime(value: .max, timescale: 1)
        #expect((huge + huge).value == .max)
        #expect(huge.converted(to: 1_000_000).value == .max)
        #expect(MediaTime(value: .min, timescale: 1).converted(to: 1000).value == .min)
    }

    @Test func multipliesByRates() {
        #expect(MediaTime(value: 10, timescale: 1).multiplied(by: Rational(3, 2)) == MediaTime(value: 15, timescale: 1))
    }

    @Test func printsSecondsLikeFFprobe() {
        #expect(MediaTime(value: 1, timescale: 3).description == "0.333333")
        #expect(MediaTime(value: -3, timescale: 2).description == "-1.500000")
        #expect(MediaTime(seconds: 12.5).seconds == 12.5)
    }
}

@Suite struct RationalTests {
    @Test func reducesAndParses() throws {
        #expect(Rational(60000, 2002).reduced == Rational(30000, 1001))
        #expect(Rational(4, -6).reduced == Rational(-2, 3))
        #expect(try #require(Rational(parsing: "16:9")) == Rational(16, 9))
        #expect(Rational(parsing: "abc") == nil)
        #expect(Rational(0, 0).isKnown == false)
        #expect(Rational(0, 0).doubleValue == nil)
        #expect(Rational(0, 0).reduced == Rational(0, 0))
    }
}
