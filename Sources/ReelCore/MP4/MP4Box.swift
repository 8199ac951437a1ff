/// One ISO base media file format box: its type and where its header and body lie.
public struct MP4Box: Sendable, Equatable {
    /// The four-character type (`moov`, `trak`…); for `uuid` boxes, ``extendedType`` too.
    public var type: String
    /// The 16-byte user type of a `uuid` box.
    public var extendedType: [UInt8]?
    /// Offset of the box's first byte in the file.
    public var offset: UInt64
    /// The whole box, header included.
    public var size: UInt64
    /// Header length: 8, 16 with a 64-bit size, plus 16 for a `uuid`.
    public var headerSize: UInt64

    /// Offset of the body's first byte: after the header.
    public var bodyOffset: UInt64 { offset + headerSize }
    /// The body's size: the box without its header.
    public var bodySize: UInt64 { size - headerSize }
    /// Offset just past the box, where the next one starts.
    public var end: UInt64 { offset + size }
}

/// Why a box could not be read.
public enum MP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file ends inside a box header that starts at this offset.
    case truncated(at: UInt64)
    /// A box claims a size that its header or its parent cannot hold.
    case invalidSize(type: String, at: UInt64, size: UInt64)
    /// Something else is wrong; the text says what.
    case unreadable(String)

    public var description: String {
        switch self {
        case .truncated(let offset): "the file ends inside a box header at byte \(offset)"
        case .invalidSize(let type, let offset, let size): "box '\(type)' at byte \(offset) claims \(size) bytes, more than it can hold"
        case .unreadable(let detail): "cannot read: \(detail)"
        }
    }
}

/// Random access to bytes: a file, or memory in tests.
public protocol MP4ByteSource {
    /// The number of bytes there are.
    var length: UInt64 { get }
    /// Exactly `count` bytes at `offset`, or nil past the end.
    func read(at offset: UInt64, count: Int) throws -> [UInt8]?
}

extension MP4ByteSource {
    /// The boxes that follow each other from `start` to `end` (a file, or a box's body):
    /// every size form (32-bit, 64-bit `largesize`, 0 meaning "to the end"), none trusted
    /// beyond its parent.
    public func boxes(from start: UInt64 = 0, to end: UInt64? = nil) throws -> [MP4Box] {
        let limit = min(end ?? length, length)
        var boxes: [MP4Box] = []
        var offset = start
        while offset + 8 <= limit {
            guard let header = try read(at: offset, count: 8) else { throw MP4Error.truncated(at: offset) }
            let size32 = UInt64(header[0]) << 24 | UInt64(header[1]) << 16 | UInt64(header[2]) << 8 | UInt64(header[3])
            let type = String(decoding: header[4..<8].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            var size = size32, headerSize: UInt64 = 8
            if size32 == 1 {
                guard let large = try read(at: offset + 8, count: 8) else { throw MP4Error.truncated(at: offset) }
                size = large.reduce(0) { $0 << 8 | UInt64($1) }
                headerSize = 16
            } else if size32 == 0 {
                size = limit - offset
            }
            var extendedType: [UInt8]?
            if type == "uuid" {
                guard let user = try read(at: offset + headerSize, count: 16) else { throw MP4Error.truncated(at: offset) }
                extendedType = user
                headerSize += 16
            }
            guard size >= headerSize, size <= limit - offset else { throw MP4Error.invalidSize(type: type, at: offset, size: size) }
            boxes.append(MP4Box(type: type, extendedType: extendedType, offset: offset, size: size, headerSize: headerSize))
            offset += size
        }
        return boxes
    }

    /// The children of `box`, skipping `skip` bytes of fields at the start of its body.
    public func children(of box: MP4Box, skipping skip: UInt64 = 0) throws -> [MP4Box] {
        guard skip <= box.bodySize else { return [] }
        return try boxes(from: box.bodyOffset + skip, to: box.end)
    }

    /// The body of a small box (at most `limit` bytes), or nil when it is larger.
    public func body(of box: MP4Box, limit: Int = 1 << 20) throws -> [UInt8]? {
        guard box.bodySize <= UInt64(limit) else { return nil }
        return try read(at: box.bodyOffset, count: Int(box.bodySize))
    }
}

/// Bytes in memory.
public struct MP4MemorySource: MP4ByteSource, Sendable {
    /// The bytes read.
    public let bytes: [UInt8]
    /// A source over bytes in memory.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// The number of bytes.
    public var length: UInt64 { UInt64(bytes.count) }
    public func read(at offset: UInt64, count: Int) throws -> [UInt8]? {
        guard count >= 0, offset <= UInt64(bytes.count), UInt64(count) <= UInt64(bytes.count) - offset else { return nil }
        return Array(bytes[Int(offset)..<Int(offset) + count])
    }
}
