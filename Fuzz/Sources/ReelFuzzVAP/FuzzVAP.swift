import ReelCore

/// libFuzzer's entry: the input is an MP4 file in memory. Reel's box walker, sample tables
/// and `vapc` parser must reject anything malformed with an error, never trap; the `vapc`
/// parser also gets the input as JSON directly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVAP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = MP4MemorySource(bytes)
    if let file = try? VAPFile(source: source) {
        _ = file.layout()
        _ = file.sampleFrameRate
    }
    _ = try? MP4Reader.tracks(from: source)
    if let config = try? VAPConfig.decode(json: bytes) {
        _ = config.objects(inFrame: 0)
        _ = try? config.json()
    }
    return 0
}
