#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a viewer looks into a 360° picture and what they see: the orientation in degrees
/// (ffmpeg v360's conventions: yaw > 0 looks right, pitch > 0 looks up, roll > 0 turns
/// the picture clockwise) and the fields of view of the flat output.
public struct PanoramaView: Sendable, Hashable, Codable {
    /// Degrees to the right of the picture's centre.
    public var yaw: Float
    /// Degrees above the horizon.
    public var pitch: Float
    /// Degrees the picture is turned clockwise.
    public var roll: Float
    /// Horizontal field of view, degrees (0–180 exclusive).
    public var horizontalFOV: Float
    /// Vertical field of view, degrees; give it for square pixels (see ``squarePixels(width:height:)``).
    public var verticalFOV: Float

    /// A view; by default straight ahead with a 90° × 59° field (square pixels at 16:9).
    public init(yaw: Float = 0, pitch: Float = 0, roll: Float = 0, horizontalFOV: Float = 90, verticalFOV: Float = 59) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
        self.horizontalFOV = horizontalFOV
        self.verticalFOV = verticalFOV
    }

    /// This view with the vertical field of view that makes pixels square in a
    /// `width`×`height` output.
    public func squarePixels(width: Int, height: Int) -> PanoramaView {
        var view = self
        let halfWidth = Double(horizontalFOV) * Double.pi / 360
        let halfHeight: Double = atan(tan(halfWidth) * Double(height) / Double(width))
        view.verticalFOV = Float(halfHeight * 360 / Double.pi)
        return view
    }
}

/// How an output pixel takes its value from the source.
public enum PanoramaInterpolation: String, Sendable, CaseIterable, Codable {
    /// The source pixel the ray falls in (v360's `near`).
    case nearest
    /// The four around it, weighted (v360's `linear`).
    case bilinear
}

/// Which part of a stereo source holds the picture for one eye.
public enum StereoLayout: String, Sendable, CaseIterable, Codable {
    /// The whole picture is one eye's (flat 360°).
    case mono
    /// Left eye on top, right eye below.
    case topBottom = "tb"
    /// Left eye on the left, right eye on the right.
    case leftRight = "lr"
}

/// One of a viewer's two eyes.
public enum Eye: Sendable {
    /// The left eye.
    case left
    /// The right eye.
    case right
}

extension StereoLayout {
    /// The region of a `width`×`height` source that holds `eye`'s picture.
    public func region(of eye: Eye, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        switch self {
        case .mono: (0, 0, width, height)
        case .topBottom: (0, eye == .left ? 0 : height / 2, width, height / 2)
        case .leftRight: (eye == .left ? 0 : width / 2, 0, width / 2, height)
        }
    }
}
