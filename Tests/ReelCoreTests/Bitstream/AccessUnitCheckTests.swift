import ReelCore
import Testing

/// `VideoCodec.holdsOneAccessUnit`: a live MPEG-TS packet is taken whole only when it is
/// one picture, from its first unit to its last.
@Suite struct AccessUnitCheckTests {
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1F, 0xDA], pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    /// A slice: first_mb_in_slice 0 (first bit 1) or not.
    static func slice(_ header: UInt8, first: Bool) -> [UInt8] { [header, first ? 0x88 : 0x08, 0x11, 0x22] }
    static func annexB(_ units: [[UInt8]], longStartCodes: Bool = true) -> [UInt8] {
        units.flatMap { (longStartCodes ? [0, 0, 0, 1] : [0, 0, 1]) + $0 }
    }

    @Test func keyframesAndPicturesWithTheirUnitsAreWhole() {
        let h264 = VideoCodec.h264
        #expect(h264.holdsOneAccessUnit(annexB: Self.annexB([[0x09, 0xF0], Self.sps, Self.pps, Self.slice(0x65, first: true), Self.slice(0x65, first: false)])))
        #expect(h264.holdsOneAccessUnit(annexB: Self.annexB([Self.slice(0x41, first: true)], longStartCodes: false)))
        #expect(h264.holdsOneAccessUnit(annexB: Self.annexB([[0x06, 5, 1, 0, 0x80], Self.slice(0x41, first: true), Self.slice(0x41, first: false)])))
        // An end of sequence after the slices belongs to the picture before it.
        #expect(h264.holdsOneAccessUnit(annexB: Self.annexB([Self.slice(0x41, first: true), [0x0A]])))
    }

    @Test func thePartsOfASplitPictureAreNot() {
        let h264 = VideoCodec.h264
        // The picture's later slices: what came before them was cut short.
        #expect(!h264.holdsOneAccessUnit(annexB: Self.annexB([Self.slice(0x41, first: false), Self.slice(0x41, first: false)])))
        // Bytes of the previous unit before the first start code.
        #expect(!h264.holdsOneAccessUnit(annexB: [0x55, 0x66] + Self.annexB([Self.slice(0x41, first: true)])))
        #expect(!h264.holdsOneAccessUnit(annexB: [UInt8]()))
        #expect(!h264.holdsOneAccessUnit(annexB: [0x41, 0x88, 0x11]))
    }

    @Test func twoPicturesInOnePacketAreNotOne() {
        let h264 = VideoCodec.h264
        #expect(!h264.holdsOneAccessUnit(annexB: Self.annexB([Self.slice(0x41, first: true), Self.slice(0x41, first: true)])))
        #expect(!h264.holdsOneAccessUnit(annexB: Self.annexB([Self.slice(0x41, first: true), [0x09, 0xF0], Self.slice(0x41, first: true)])))
        #expect(!h264.holdsOneAccessUnit(annexB: Self.annexB([Self.slice(0x65, first: true), Self.sps, Self.pps, Self.slice(0x65, first: true)])))
    }

    @Test func h265UsesItsOwnHeaders() {
        let h265 = VideoCodec.h265
        let vps: [UInt8] = [0x40, 0x01, 0x0C], sps: [UInt8] = [0x42, 0x01, 0x01], pps: [UInt8] = [0x44, 0x01, 0xC1]
        let idrFirst: [UInt8] = [0x26, 0x01, 0xAF, 0x01], idrLater: [UInt8] = [0x26, 0x01, 0x2F, 0x01]
        let trailFirst: [UInt8] = [0x02, 0x01, 0xD0, 0x01], suffixSEI: [UInt8] = [0x50, 0x01, 0x05]
        #expect(h265.holdsOneAccessUnit(annexB: Self.annexB([vps, sps, pps, idrFirst, idrLater, suffixSEI])))
        #expect(!h265.holdsOneAccessUnit(annexB: Self.annexB([idrLater])))
        #expect(!h265.holdsOneAccessUnit(annexB: Self.annexB([trailFirst, trailFirst])))
    }
}
