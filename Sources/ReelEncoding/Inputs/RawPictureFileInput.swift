import Foundation
import ReelCore

/// Uncompressed 8-bit I420 pictures from a file: raw (`.yuv`, size and rate given) or
/// YUV4MPEG2 (`.y4m`, each picture after a `FRAME` line).
///
/// Not `Sendable`: one encoder loop pulls its pictures, in order.
public final class RawPictureFileInput: EncoderInput {
    public let width: Int
    public let height: Int
    public let frameRate: Rational
    public let frameCount: Int?
    public var isLive: Bool { false }
    private let file: UnsafeMutablePointer<FILE>
    private let path: String
    private let isY4M: Bool
    private let range: ColorRange
    private let pool = PixelBufferPool(capacity: 16)
    private let pictureBytes: Int
    private var index = 0

    /// A y4m file: the size and rate come from its header.
    public convenience init(y4m path: String) throws {
        try self.init(path: path, y4m: true, width: 0, height: 0, frameRate: Rational(25, 1))
    }

    /// A raw I420 file of `width`×`height` pictures at `frameRate`.
    public convenience init(raw path: String, width: Int, height: Int, frameRate: Rational) throws {
        try self.init(path: path, y4m: false, width: width, height: height, frameRate: frameRate)
    }

    private init(path: String, y4m: Bool, width: Int, height: Int, frameRate: Rational) throws {
        guard let file = fopen(path, "rb") else {
            throw InputError(errno == ENOENT ? .notFound : .other, operation: .open, url: path, detail: String(cString: strerror(errno)))
        }
        self.file = file
        self.path = path
        isY4M = y4m
        var size = (width, height), rate = frameRate, range = ColorRange.limited
        if y4m {
            let header: Y4MHeader
            do {
                guard let line = try Self.readLine(file, path: path) else {
                    throw InputError(.truncated, operation: .read, url: path, detail: "empty: no YUV4MPEG2 header")
                }
                header = try Y4MHeader(line: line)
            } catch let error as BitstreamError {
                fclose(file)
                throw InputError(.invalidData, operation: .read, url: path, detail: error.description)
            }
            size = (header.width, header.height)
            rate = header.frameRate
            range = header.range
        }
        guard size.0 > 0, size.1 > 0, size.0 % 2 == 0, size.1 % 2 == 0, size.0 <= PixelBuffer.maxDimension, size.1 <= PixelBuffer.maxDimension else {
            fclose(file)
            throw InputError(.invalidData, operation: .open, url: path, detail: "raw I420 pictures need an even size, got \(size.0)x\(size.1)")
        }
        self.width = size.0
        self.height = size.1
        self.frameRate = rate
        self.range = range
        pictureBytes = size.0 * size.1 * 3 / 2
        var status = stat()
        if !y4m, fstat(fileno(file), &status) == 0 {
            frameCount = Int(status.st_size) / pictureBytes
        } else {
            frameCount = nil
        }
    }

    deinit { fclose(file) }

    public func nextFrame() throws -> (frame: VideoFrame, presentationTime: MediaTime)? {
        if isY4M {
            // The end of the file is the end; a line that is no FRAME line (a writer that
            // put more bytes in a picture than its header says) is an error.
            guard let marker = try Self.readLine(file, path: path) else { return nil }
            guard marker.hasPrefix("FRAME") else { throw InputError(.invalidData, operation: .read, url: path, detail: "picture \(index) has no FRAME line") }
        }
        // Straight into the picture's planes: a row at a time only where rows are padded.
        let picture = try pool.makeBuffer(format: .i420, width: width, height: height, range: range)
        var read = 0
        for plane in picture.planes {
            if plane.bytesPerRow == plane.rowByteCount {
                read += fread(plane.baseAddress, 1, plane.rowByteCount * plane.rowCount, file)
            } else {
                for row in 0..<plane.rowCount { read += fread(plane.row(row), 1, plane.rowByteCount, file) }
            }
        }
        if read == 0, !isY4M { return nil }
        guard read == pictureBytes else { throw InputError(.truncated, operation: .read, url: path, detail: "picture \(index) has \(read) of \(pictureBytes) bytes") }
        let time = MediaTime(value: Int64(index) * Int64(frameRate.denominator), timescale: Int32(clamping: frameRate.numerator))
        index += 1
        return (picture.videoFrame(), time)
    }

    /// A line of at most `Y4MHeader/maxLineLength` bytes; nil at the end of the file.
    private static func readLine(_ file: UnsafeMutablePointer<FILE>, path: String) throws -> String? {
        var bytes: [UInt8] = []
        while true {
            let character = fgetc(file)
            if character == EOF {
                guard !bytes.isEmpty else { return nil }
                break
            }
            if character == 0x0A { break }
            bytes.append(UInt8(character))
            guard bytes.count <= Y4MHeader.maxLineLength else {
                throw InputError(.invalidData, operation: .read, url: path, detail: "a y4m line is longer than \(Y4MHeader.maxLineLength) bytes: not a header or FRAME line (is the picture size in the header right?)")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension RawPictureFileInput: Sendable {}
