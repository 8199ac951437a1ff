import ReelCore

/// libFuzzer's entry: the input is an MP4 file in memory whose spherical metadata (Google's
/// V1 XML in a `uuid` box, V2's `st3d`/`sv3d` boxes) Reel reads; anything malformed must
/// come back as an error or no metadata, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpherical(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = MP4MemorySource(Array(UnsafeBufferPointer(start: data, count: size)))
    if let metadata = try? SphericalMetadata.read(from: source) { _ = metadata == metadata }
    return 0
}
