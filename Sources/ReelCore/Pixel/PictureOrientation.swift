import Foundation

/// How a decoded picture is turned to be shown upright: one of the eight right-angle
/// orientations (turns of 90° and a mirror), as a phone's display matrix states them.
///
/// The shown picture is the decoded one mirrored left to right when ``isMirrored``, then
/// turned clockwise by ``clockwiseQuarterTurns`` × 90°. Other angles than right angles are
/// not orientations: a display matrix that asks for one is shown as decoded, as mpv does.
public struct PictureOrientation: Sendable, Hashable, CustomStringConvertible {
    /// Quarter turns clockwise, 0…3.
    public let clockwiseQuarterTurns: Int
    /// Whether the picture is mirrored left to right before it is turned.
    public let isMirrored: Bool

    /// The picture as decoded.
    public static let upright = PictureOrientation(clockwiseQuarterTurns: 0)

    /// An orientation; turns are taken modulo four (−1 is three turns clockwise).
    public init(clockwiseQuarterTurns: Int, mirrored: Bool = false) {
        self.clockwiseQuarterTurns = ((clockwiseQuarterTurns % 4) + 4) % 4
        self.isMirrored = mirrored
    }

    /// A turn clockwise by `degrees`, when it is a multiple of 90; nil otherwise.
    public init?(clockwiseDegrees degrees: Int) {
        guard degrees % 90 == 0 else { return nil }
        self.init(clockwiseQuarterTurns: degrees / 90)
    }

    /// The orientation a display matrix (the nine 16.16 and 2.30 fixed-point numbers of an
    /// MP4 `tkhd`, FFmpeg's `AV_PKT_DATA_DISPLAYMATRIX`) asks for, read as FFmpeg 6.1's
    /// command line reads it to rotate automatically (`get_rotation` and the transpose,
    /// hflip and vflip filters it inserts); nil for a matrix that turns by another angle
    /// or has no scale.
    public init?(displayMatrix matrix: [Int32]) {
        guard matrix.count == 9 else { return nil }
        let m = matrix.map(Double.init)
        let scaleX = (m[0] * m[0] + m[3] * m[3]).squareRoot(), scaleY = (m[1] * m[1] + m[4] * m[4]).squareRoot()
        guard scaleX > 0, scaleY > 0 else { return nil }
        // av_display_rotation_get gives degrees counter-clockwise; the command line turns
        // the picture clockwise by its negation, rounded and brought into [0, 360).
        let counterClockwise = -atan2(m[1] / scaleY, m[0] / scaleX) * 180 / .pi
        var theta = -counterClockwise.rounded()
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        let degrees = Int(theta.rounded())
        guard abs(theta - Double(degrees)) < 1, degrees % 90 == 0 else { return nil }
        switch degrees % 360 {
        case 90:
            // transpose=cclock_flip when m[3] > 0, else transpose=clock.
            self = matrix[3] > 0 ? PictureOrientation(transposed: true, reversedRows: false, reversedColumns: false)
                : PictureOrientation(clockwiseQuarterTurns: 1)
        case 180:
            // hflip where m[0] < 0, vflip where m[4] < 0: both make a half turn.
            self = PictureOrientation(transposed: false, reversedRows: matrix[4] < 0, reversedColumns: matrix[0] < 0)
        case 270:
            // transpose=clock_flip when m[3] < 0, else transpose=cclock.
            self = matrix[3] < 0 ? PictureOrientation(transposed: true, reversedRows: true, reversedColumns: true)
                : PictureOrientation(clockwiseQuarterTurns: 3)
        default:
            // vflip where m[4] < 0.
            self = PictureOrientation(transposed: false, reversedRows: matrix[4] < 0, reversedColumns: false)
        }
    }

    /// This orientation followed by `other` (turns add; a mirror in `other` mirrors the result).
    public func followed(by other: PictureOrientation) -> PictureOrientation {
        // Mirroring after a turn is mirroring before the opposite turn.
        let turns = other.isMirrored ? -clockwiseQuarterTurns : clockwiseQuarterTurns
        return PictureOrientation(clockwiseQuarterTurns: turns + other.clockwiseQuarterTurns, mirrored: isMirrored != other.isMirrored)
    }

    /// Whether the shown picture's width is the decoded one's height.
    public var swapsDimensions: Bool { clockwiseQuarterTurns % 2 == 1 }

    /// Whether the picture is shown as decoded.
    public var isUpright: Bool { self == .upright }

    /// The shown picture's size for a decoded `width`×`height`.
    public func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// "90° clockwise", "mirrored, 180°"…
    public var description: String {
        let turn = clockwiseQuarterTurns == 0 ? "upright" : "\(clockwiseQuarterTurns * 90)° clockwise"
        return isMirrored ? "mirrored, \(turn)" : turn
    }

    // MARK: Sampling

    /// The shown picture reads the decoded one with rows and columns swapped (a transpose),
    /// then its rows and columns counted from the far end where these say so: the three
    /// operations of FFmpeg's transpose, hflip and vflip filters.
    var transposed: Bool { swapsDimensions }

    /// Whether a shown picture reads the decoded rows from the bottom up (in the decoded
    /// picture's coordinates).
    var reversedRows: Bool { clockwiseQuarterTurns == 1 || clockwiseQuarterTurns == 2 }

    /// Whether a shown picture reads the decoded columns from right to left.
    var reversedColumns: Bool { (clockwiseQuarterTurns == 2 || clockwiseQuarterTurns == 3) != isMirrored }

    /// The orientation that reads the decoded picture this way: shown (x, y) comes from
    /// decoded (y, x) when `transposed`, else from (x, y), with rows and columns reversed
    /// as said.
    init(transposed: Bool, reversedRows: Bool, reversedColumns: Bool) {
        // Without a mirror: turns 0 (–,–), 1 (rows), 2 (rows, columns), 3 (columns).
        let turns = transposed ? (reversedRows ? 1 : 3) : (reversedRows ? 2 : 0)
        let columnsWithoutMirror = turns == 2 || turns == 3
        self.init(clockwiseQuarterTurns: turns, mirrored: reversedColumns != columnsWithoutMirror)
    }
}
