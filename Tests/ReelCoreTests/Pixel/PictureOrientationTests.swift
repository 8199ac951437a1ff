import Testing
@testable import ReelCore

@Suite struct PictureOrientationTests {
    static let one: Int32 = 0x10000

    /// Display matrices as MP4 writers store them, and the filters FFmpeg 6.1's command line
    /// inserts for each (ffmpeg_filter.c): clock = 90° clockwise, cclock = 270°,
    /// cclock_flip = a plain transpose, clock_flip = a transpose read from the far corner.
    static let matrices: [(matrix: [Int32], expected: PictureOrientation)] = [
        ([one, 0, 0, 0, one, 0, 0, 0, 0x4000_0000], PictureOrientation.upright),                     // identity
        ([0, one, 0, -one, 0, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 1)),  // a phone held upright: clock
        ([-one, 0, 0, 0, -one, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 2)), // hflip + vflip
        ([0, -one, 0, one, 0, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 3)),  // cclock
        ([-one, 0, 0, 0, one, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 0, mirrored: true)), // hflip
        ([one, 0, 0, 0, -one, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 2, mirrored: true)), // vflip
        ([0, one, 0, one, 0, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 3, mirrored: true)),  // cclock_flip
        ([0, -one, 0, -one, 0, 0, 0, 0, 0x4000_0000], PictureOrientation(clockwiseQuarterTurns: 1, mirrored: true)), // clock_flip
    ]

    @Test(arguments: matrices)
    func displayMatricesReadAsFFmpegReadsThem(matrix: [Int32], expected: PictureOrientation) {
        #expect(PictureOrientation(displayMatrix: matrix) == expected)
    }

    @Test func otherAnglesAndBrokenMatricesAreNotOrientations() {
        let cos45 = Int32(0.7071 * 65536)
        #expect(PictureOrientation(displayMatrix: [cos45, cos45, 0, -cos45, cos45, 0, 0, 0, 0x4000_0000]) == nil)
        #expect(PictureOrientation(displayMatrix: [0, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(PictureOrientation(displayMatrix: [1, 2, 3]) == nil)
        #expect(PictureOrientation(clockwiseDegrees: 45) == nil)
        #expect(PictureOrientation(clockwiseDegrees: -90) == PictureOrientation(clockwiseQuarterTurns: 3))
        #expect(PictureOrientation(clockwiseDegrees: 450) == PictureOrientation(clockwiseQuarterTurns: 1))
    }

    static let all = (0..<4).flatMap { turns in [false, true].map { PictureOrientation(clockwiseQuarterTurns: turns, mirrored: $0) } }

    /// The reference: a grid mirrored, then turned a quarter clockwise at a time.
    static func reference(_ grid: [[UInt32]], _ orientation: PictureOrientation) -> [[UInt32]] {
        var result = orientation.isMirrored ? grid.map { Array($0.reversed()) } : grid
        for _ in 0..<orientation.clockwiseQuarterTurns {
            let height = result.count, width = result[0].count
            result = (0..<width).map { y in (0..<height).map { x in result[height - 1 - x][y] } }
        }
        return result
    }

    @Test func turningOneWayThenAnotherIsTheirComposition() {
        let grid: [[UInt32]] = (0..<3).map { y in (0..<5).map { UInt32(y * 10 + $0) } }
        for first in Self.all {
            for second in Self.all {
                #expect(Self.reference(Self.reference(grid, first), second) == Self.reference(grid, first.followed(by: second)),
                        "\(first) then \(second)")
            }
        }
    }

    static func planeGrid(_ plane: PixelPlane, elementBytes: Int) -> [[UInt32]] {
        (0..<plane.rowCount).map { y in
            stride(from: 0, to: plane.rowByteCount, by: elementBytes).map { x in
                (0..<elementBytes).reduce(UInt32(0)) { $0 << 8 | UInt32(plane.row(y)[x + $1]) }
            }
        }
    }

    /// Every plane of every layout, at sizes that cross the kernel's 32-element tiles and
    /// have odd chroma, moves exactly as the reference moves it.
    @Test(arguments: PixelBufferFormat.allCases)
    func everyPlaneMovesAsTheReferenceSays(format: PixelBufferFormat) throws {
        let source = try PixelBuffer(format: format, width: 37, height: 71)
        var seed: UInt32 = 12345
        for plane in source.planes {
            for y in 0..<plane.rowCount {
                for x in 0..<plane.rowByteCount {
                    seed = seed &* 1_103_515_245 &+ 12345
                    plane.row(y)[x] = UInt8(truncatingIfNeeded: seed >> 16)
                }
            }
        }
        let pool = PixelBufferPool()
        for orientation in Self.all {
            let turned = try source.reoriented(orientation, pool: pool)
            let size = orientation.orientedSize(width: 37, height: 71)
            #expect(turned.width == size.width && turned.height == size.height && turned.format == format)
            for (index, (before, after)) in zip(source.planes, turned.planes).enumerated() {
                let bytes = PixelBuffer.elementBytes(format: format, plane: index)
                #expect(Self.planeGrid(after, elementBytes: bytes) == Self.reference(Self.planeGrid(before, elementBytes: bytes), orientation),
                        "\(format) plane \(index), \(orientation)")
            }
        }
    }
}
