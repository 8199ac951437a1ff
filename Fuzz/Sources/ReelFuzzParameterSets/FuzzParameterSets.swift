import ReelCore

/// libFuzzer's entry: the first byte chooses what the rest is, an H.264 or H.265 NAL unit
/// read as a sequence parameter set (the H.265 one behind its VPS) or an `avcC`/`hvcC`
/// decoder configuration record; anything malformed must be an error, never a trap or a
/// size taken from the input unchecked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParameterSets(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 4 {
    case 0: _ = try? H264SequenceParameterSet(nalUnit: bytes)
    case 1: _ = try? H265SequenceParameterSet(nalUnit: bytes)
    case 2:
        if let record = try? DecoderConfigurationRecord.parameterSets(of: bytes, codec: .h264) {
            for unit in record.units where VideoCodec.h264.nalType(unit.first ?? 0) == 7 { _ = try? H264SequenceParameterSet(nalUnit: unit) }
        }
    default:
        if let record = try? DecoderConfigurationRecord.parameterSets(of: bytes, codec: .h265) {
            for unit in record.units where VideoCodec.h265.nalType(unit.first ?? 0) == 33 { _ = try? H265SequenceParameterSet(nalUnit: unit) }
        }
    }
    return 0
}
