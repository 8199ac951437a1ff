import Foundation
import ReelCore
import Testing

@Suite struct SenderClockTests {
    @Test func ntpTimestampsCountFrom1900() {
        // The Unix epoch is 2,208,988,800 s after NTP's (RFC 868); half a second is 2^31.
        #expect(NTPTimestamp(unixSeconds: 0).value == 0x83AA_7E80_0000_0000)
        #expect(NTPTimestamp(unixSeconds: 1.5).value == 0x83AA_7E81_8000_0000)
        let now = 1_795_000_000.123456
        #expect(abs(NTPTimestamp(unixSeconds: now).unixSeconds - now) < 1e-6)
        #expect(NTPTimestamp(value: 0x0000_1234_5678_0000).middle32 == 0x1234_5678)
    }

    @Test func aSenderReportRoundTripsWithItsCNAMEAndBye() throws {
        let ntp = NTPTimestamp(unixSeconds: 1_795_000_000.25)
        let bytes = RTCPPacket.senderReport(ssrc: 0xDEAD_BEEF, ntpTimestamp: ntp, rtpTimestamp: 90_000, packetCount: 12,
                                            octetCount: 15_000, cname: "reel@host", goodbye: true)
        #expect(bytes.count % 4 == 0)
        let packets = try RTCPPacket.parseCompound(bytes)
        #expect(packets == [
            .senderReport(ssrc: 0xDEAD_BEEF, ntpTimestamp: ntp.value, rtpTimestamp: 90_000, packetCount: 12, octetCount: 15_000, reports: []),
            .other(packetType: 202),
            .bye(ssrcs: [0xDEAD_BEEF], reason: nil),
        ])
    }

    @Test func rtpTimestampsMapToTheSendersWallClockAcrossAWrap() {
        let report = NTPTimestamp(unixSeconds: 1000)
        let clock = SenderClock(ntpTimestamp: report, rtpTimestamp: UInt32.max - 44_999, clockRate: 90_000)
        #expect(clock.unixSeconds(ofRTPTimestamp: UInt32.max - 44_999) == 1000)
        // Half a second later, after the 32-bit wrap; and one second before the report.
        #expect(abs(clock.unixSeconds(ofRTPTimestamp: 0) - 1000.5) < 1e-9)
        #expect(abs(clock.unixSeconds(ofRTPTimestamp: UInt32.max - 134_999) - 999) < 1e-9)
    }
}
