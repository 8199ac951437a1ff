import Foundation

/// A wall-clock time drawn into a picture as large blocks, for measuring glass-to-glass
/// latency: the camera draws the time a picture is captured, the viewer reads it back
/// when the picture is shown and subtracts it from its own clock.
///
/// The code is a band across the top of the luma plane: 2 rows of 32 square cells, each
/// 1/32 of the picture's width (40 pixels at 1280×720). The first cell is white and the
/// second black, so a reader finds its threshold in the picture itself whatever the
/// encoder did to levels; the other 62 cells are bits, white for 1: the time in
/// microseconds modulo 2^46 (26 months), then a CRC-16 of it. Cells that big, read by the
/// mean of their middle half, survive H.264 at 500 kbit/s and scaling; the CRC makes a
/// picture the encoder smeared (or one without a code) unreadable rather than wrong.
public enum LatencyTimecode {
    /// Cells across the band.
    public static let columns = 32
    /// Rows of cells.
    public static let rows = 2
    /// Bits of time: microseconds modulo 2^46.
    public static let timeBits = 46
    static let timeModulus: UInt64 = 1 << 46
    static let black: UInt8 = 16
    static let white: UInt8 = 235
    /// The reference cells' levels must differ by this much for a picture to be read.
    static let minimumContrast = 64

    /// The side of a cell in a picture `width` wide; nil when the picture is too small to
    /// carry the code (cells under 4 pixels, or a band taller than a third of it).
    public static func cellSize(width: Int, height: Int) -> Int? {
        let cell = width / columns
        guard cell >= 4, cell * rows * 3 <= height else { return nil }
        return cell
    }

    /// The clock the code carries: wall-clock microseconds, modulo 2^46.
    public static func now() -> UInt64 {
        UInt64(Date().timeIntervalSince1970 * 1_000_000) % timeModulus
    }

    /// How long ago `time` (a code's value) was on `clock` (``now()`` by default), in
    /// seconds; negative when the code is from the future (clocks that disagree).
    public static func age(of time: UInt64, at clock: UInt64 = now()) -> Double {
        var difference = (clock &- time) % timeModulus
        if difference >= timeModulus / 2 { difference = difference &- timeModulus }
        return Double(Int64(bitPattern: difference)) / 1_000_000
    }

    /// The 64 cells for `time`, row by row: white, black, 46 bits of time, 16 of CRC.
    static func cells(for time: UInt64) -> [Bool] {
        let time = time % timeModulus
        let crc = CRC16.ccittFalse(bytes(of: time))
        var cells = [true, false]
        for bit in (0..<timeBits).reversed() { cells.append(time >> UInt64(bit) & 1 == 1) }
        for bit in (0..<16).reversed() { cells.append(crc >> UInt16(bit) & 1 == 1) }
        return cells
    }

    /// The time the data cells carry, if their CRC holds.
    static func time(fromCells cells: [Bool]) -> UInt64? {
        guard cells.count == columns * rows else { return nil }
        let time = cells[2..<2 + timeBits].reduce(UInt64(0)) { $0 << 1 | ($1 ? 1 : 0) }
        let crc = cells[(2 + timeBits)...].reduce(UInt16(0)) { $0 << 1 | ($1 ? 1 : 0) }
        return CRC16.ccittFalse(bytes(of: time)) == crc ? time : nil
    }

    private static func bytes(of time: UInt64) -> [UInt8] {
        (0..<6).reversed().map { UInt8(truncatingIfNeeded: time >> UInt64($0 * 8)) }
    }

    /// Draws `time` into the top of `picture` (8-bit YUV: the luma band, its chroma made
    /// grey). Does nothing to a picture too small for the code.
    public static func draw(_ time: UInt64, into picture: PixelBuffer) {
        guard let cell = cellSize(width: picture.width, height: picture.height), let luma = picture.planes.first else { return }
        for (index, isWhite) in cells(for: time).enumerated() {
            let left = index % columns * cell, top = index / columns * cell
            for row in top..<top + cell { luma.row(row).advanced(by: left).update(repeating: isWhite ? white : black, count: cell) }
        }
        // Chroma at the luma's subsampling, found from the plane's size.
        for plane in picture.planes.dropFirst() {
            let bandRows = (rows * cell * plane.rowCount + picture.height - 1) / picture.height
            let bandBytes = min(plane.rowByteCount, (columns * cell * plane.rowByteCount + picture.width - 1) / picture.width)
            for row in 0..<min(bandRows, plane.rowCount) { plane.row(row).update(repeating: 128, count: bandBytes) }
        }
    }

    /// The time drawn into a picture `width`×`height` whose luma rows `row` gives (one byte
    /// per pixel); nil when there is no readable code.
    public static func read(width: Int, height: Int, row: (Int) -> UnsafeRawBufferPointer) -> UInt64? {
        guard let cell = cellSize(width: width, height: height) else { return nil }
        let inset = cell / 4, span = cell - 2 * inset
        var levels: [Int] = []
        levels.reserveCapacity(columns * rows)
        for index in 0..<columns * rows {
            let left = index % columns * cell + inset, top = index / columns * cell + inset
            var sum = 0
            for line in top..<top + span {
                let bytes = row(line)
                for column in left..<left + span { sum += Int(bytes[column]) }
            }
            levels.append(sum / (span * span))
        }
        guard levels[0] - levels[1] >= minimumContrast else { return nil }
        let threshold = (levels[0] + levels[1]) / 2
        return time(fromCells: levels.map { $0 > threshold })
    }

    /// The time drawn into `frame`, for 8-bit YUV frames (the luma plane first); nil for
    /// other layouts or without a readable code.
    public static func read(_ frame: VideoFrame) -> UInt64? {
        guard [.yuv420p, .yuvj420p, .nv12, .nv21, PixelFormat("yuv422p"), PixelFormat("yuv444p"), PixelFormat("yuvj422p"),
               PixelFormat("yuvj444p")].contains(frame.pixelFormat), let luma = frame.planes.first,
              luma.rowByteCount >= frame.width, luma.rowCount >= frame.height else { return nil }
        return read(width: frame.width, height: frame.height) { luma.row($0) }
    }
}
