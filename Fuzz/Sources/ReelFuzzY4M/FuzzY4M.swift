import ReelCore

/// libFuzzer's entry: the input's first line is a YUV4MPEG2 stream header. A header Reel
/// accepts must describe a picture it can allocate: positive sizes, a positive frame rate.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: min(size, Y4MHeader.maxLineLength))
    let line = bytes.prefix { $0 != 0x0A }
    guard let header = try? Y4MHeader(line: String(decoding: line, as: UTF8.self)) else { return 0 }
    if header.width <= 0 || header.height <= 0 || header.frameRate.numerator <= 0 || header.frameRate.denominator <= 0 {
        fatalError("an accepted header that cannot be: \(header)")
    }
    return 0
}
