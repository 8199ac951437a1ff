import ReelCore

/// libFuzzer's entry: the input is an Annex B byte stream (start codes) and, from its first
/// byte's choice of length size (1, 2 or 4), an MP4 sample of length-prefixed NAL units.
/// Units found must lie inside the input, and a stream rebuilt from them must scan back
/// to the same units.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnnexB(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let units = AnnexB.units(in: bytes)
    for unit in units where unit.startIndex < 0 || unit.endIndex > bytes.count { fatalError("a unit outside the input") }
    let nonEmpty = units.filter { !$0.isEmpty }
    let rebuilt = AnnexB.units(in: AnnexB.stream(of: nonEmpty)).filter { !$0.isEmpty }
    if rebuilt.count < nonEmpty.count { fatalError("units lost when rebuilt: \(nonEmpty.count) → \(rebuilt.count)") }
    if let first = bytes.first {
        let lengthSize = [1, 2, 4][Int(first % 3)]
        if let samples = try? AnnexB.units(inLengthPrefixed: Array(bytes.dropFirst()), lengthSize: lengthSize) {
            _ = AnnexB.lengthPrefixed(samples)
        }
    }
    return 0
}
