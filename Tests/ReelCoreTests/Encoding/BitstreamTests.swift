import Foundation
import ReelCore
import Testing

@Suite struct BitstreamTests {
    /// x264's SPS for 640x360 Main@3.0 (ffprobe: profile Main, level 30, 640x360).
    static let x264SPS: [UInt8] = Array(Data(base64Encoded: "Z01AHuygUBf8sIAAAAMAgAFfkAeLFss=")!)

    @Test func annexBUnitsComeOutWithoutStartCodesOrTrailingZeros() {
        let stream: [UInt8] = [0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 0, 1, 0x65, 4, 5, 0]
        let units = AnnexB.units(in: stream).map(Array.init)
        #expect(units == [[0x67, 1, 2], [0x68, 3], [0x65, 4, 5]])
        #expect(AnnexB.units(in: AnnexB.stream(of: units)).map(Array.init) == units)
        #expect(AnnexB.units(in: []).isEmpty && AnnexB.units(in: [0, 0, 1]).isEmpty)
    }

    @Test func lengthPrefixedRoundTripsAndRejectsOverruns() throws {
        let units: [[UInt8]] = [[0x67, 1], [0x65, 2, 3, 4]]
        let sample = AnnexB.lengthPrefixed(units)
        #expect(sample == [0, 0, 0, 2, 0x67, 1, 0, 0, 0, 4, 0x65, 2, 3, 4])
        #expect(try AnnexB.units(inLengthPrefixed: sample).map(Array.init) == units)
        #expect(throws: BitstreamError.self) { try AnnexB.units(inLengthPrefixed: [0, 0, 0, 9, 1, 2]) }
        #expect(throws: BitstreamError.self) { try AnnexB.units(inLengthPrefixed: [0, 0, 1]) }
    }

    @Test func theH264SPSGivesWhatFFprobeSays() throws {
        let sps = try H264SequenceParameterSet(nalUnit: Self.x264SPS)
        #expect(sps.profileIDC == 77 && sps.levelIDC == 30 && sps.profileName == "Main")
        #expect(sps.width == 640 && sps.height == 360)
        #expect(sps.chromaFormatIDC == 1 && sps.bitDepthLuma == 8)
    }

    @Test func truncatedParameterSetsThrow() {
        for length in 1..<8 { // the fields read end in byte 9 (VUI follows, not read)
            #expect(throws: BitstreamError.self) { try H264SequenceParameterSet(nalUnit: Self.x264SPS.prefix(length)) }
        }
        #expect(throws: BitstreamError.self) { try H265SequenceParameterSet(nalUnit: [0x42, 0x01]) }
    }

    @Test func avcCCarriesTheParameterSetsBack() throws {
        let pps: [UInt8] = [0x68, 0xEF, 0xBC, 0x80]
        let record = try DecoderConfigurationRecord.avcC(sequenceParameterSets: [Self.x264SPS], pictureParameterSets: [pps])
        #expect(Array(record.prefix(6)) == [1, 0x4D, 0x40, 0x1E, 0xFF, 0xE1])
        let parsed = try DecoderConfigurationRecord.parameterSets(of: record, codec: .h264)
        #expect(parsed.units == [Self.x264SPS, pps] && parsed.lengthSize == 4)
        #expect(throws: BitstreamError.self) { try DecoderConfigurationRecord.parameterSets(of: Array(record.prefix(10)), codec: .h264) }
    }

    @Test func exponentialGolombCodes() throws {
        // 1 → 0, 010 → 1, 011 → 2, 00100 → 3 (then se: 00101 → -2)
        var reader = BitReader(nalUnit: [0b1010_0110, 0b0100_0010, 0b1000_0000])
        #expect(try reader.unsignedGolomb() == 0)
        #expect(try reader.unsignedGolomb() == 1)
        #expect(try reader.unsignedGolomb() == 2)
        #expect(try reader.unsignedGolomb() == 3)
        #expect(try reader.signedGolomb() == -2)
        // Emulation prevention: 00 00 03 01 reads as 00 00 01.
        var escaped = BitReader(nalUnit: [0, 0, 3, 1])
        #expect(try escaped.bits(24) == 1)
        #expect(escaped.bitsLeft == 0)
    }
}
