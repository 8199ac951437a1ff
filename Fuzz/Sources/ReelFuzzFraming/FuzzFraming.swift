import Foundation
import ReelCore
import ReelEncoding

/// libFuzzer's entry: bytes that arrive framed or as pictures. The first byte picks the
/// reader, the rest is its input:
/// - 0: a stream of 4-byte lengths and packets (the HTTP progressive transport), given whole
///   and in chunks of the size the first byte says: both give the same packets and the same
///   end, each packet within the cap;
/// - 1: an MPEG-TS packet's bytes as a whole access unit is checked, the same answer at any
///   offset in memory;
/// - 2: a picture (its size from the next two bytes) that the latency timecode is read from:
///   a time read is one the timecode can hold;
/// - 3: a y4m file (header, FRAME lines, pictures) read picture by picture: each picture as
///   large as the header says, the reading ends or fails, never runs on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFraming(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch selector % 4 {
    case 0: framing(bytes, chunk: Int(selector / 4) + 1)
    case 1: accessUnit(bytes)
    case 2: timecode(bytes)
    default: y4m(bytes)
    }
    return 0
}

private func frames(_ bytes: [UInt8], chunk: Int) -> (packets: [[UInt8]], failed: Bool) {
    var framer = LengthPrefixedFramer(lengthSize: 4, maxPacketSize: 1 << 16)
    var packets: [[UInt8]] = []
    var offset = 0
    repeat {
        let end = min(offset + chunk, bytes.count)
        framer.append(bytes[offset..<end])
        offset = end
        do {
            while let packet = try framer.next() { packets.append(packet) }
        } catch {
            return (packets, true)
        }
    } while offset < bytes.count
    return (packets, false)
}

private func framing(_ bytes: [UInt8], chunk: Int) {
    let whole = frames(bytes, chunk: max(bytes.count, 1))
    let chunked = frames(bytes, chunk: chunk)
    if whole.packets != chunked.packets || whole.failed != chunked.failed { fatalError("chunks of \(chunk) read otherwise than the whole") }
    if whole.packets.contains(where: { $0.count > 1 << 16 }) { fatalError("a packet over the cap") }
    if whole.packets.reduce(0, { $0 + 4 + $1.count }) > bytes.count { fatalError("more packet bytes than input") }
    // What a sender frames reads back as it was.
    var framer = LengthPrefixedFramer(lengthSize: 4, maxPacketSize: 1 << 16)
    for packet in whole.packets { framer.append(LengthPrefixedFramer.frame(packet, lengthSize: 4)) }
    for packet in whole.packets where (try? framer.next()) != packet { fatalError("a framed packet read back otherwise") }
}

private func accessUnit(_ bytes: [UInt8]) {
    for codec in [VideoCodec.h264, .h265] {
        let answer = codec.holdsOneAccessUnit(annexB: bytes)
        let shifted = [0xAB, 0xCD] + bytes
        if codec.holdsOneAccessUnit(annexB: shifted[2...]) != answer { fatalError("another answer at another offset") }
    }
}

private func timecode(_ bytes: [UInt8]) {
    guard bytes.count >= 2 else { return }
    let width = Int(bytes[0]) + 1, height = Int(bytes[1]) % 64 + 1
    let input = bytes.dropFirst(2)
    guard !input.isEmpty else { return }
    // The luma plane: the input's bytes over and over.
    let plane = (0..<width * height).map { input[input.startIndex + $0 % input.count] }
    let time = plane.withUnsafeBytes { all in
        LatencyTimecode.read(width: width, height: height) { row in UnsafeRawBufferPointer(rebasing: all[row * width..<(row + 1) * width]) }
    }
    if let time, time >= 1 << UInt64(LatencyTimecode.timeBits) { fatalError("a time of \(time), beyond \(LatencyTimecode.timeBits) bits") }
}

private func y4m(_ bytes: [UInt8]) {
    let path = "/dev/shm/reel-fuzz-y4m-\(getpid()).y4m"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
    defer { unlink(path) }
    guard let input = try? RawPictureFileInput(y4m: path) else { return }
    var pictures = 0
    while let picture = try? input.nextFrame() {
        pictures += 1
        if pictures > bytes.count { fatalError("more pictures than bytes: the reading runs on") }
        if picture.frame.width <= 0 || picture.frame.height <= 0 { fatalError("a picture of \(picture.frame.width)x\(picture.frame.height)") }
    }
}
