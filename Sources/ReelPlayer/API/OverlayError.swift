import Foundation

/// Why ``PlayerOverlays/start(_:placement:z:loops:at:)`` refused an animation.
public enum OverlayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The animation alone makes more pixels a second than the whole budget.
    case tooLarge(width: Int, height: Int, framesPerSecond: Double, budget: Double)
    /// With the `playing` animations using `inUse` of the budget, there is no room for the
    /// `needs` of this one.
    case budgetSpent(needs: Double, playing: Int, inUse: Double, budget: Double)

    /// One line for the user.
    public var description: String {
        func megapixels(_ value: Double) -> String { String(format: "%.1f Mpx/s", value / 1_000_000) }
        switch self {
        case .tooLarge(let width, let height, let framesPerSecond, let budget):
            return "refused: \(width)x\(height) at \(String(format: "%g", framesPerSecond)) fps makes "
                + "\(megapixels(Double(width * height) * framesPerSecond)), more than the whole gift budget of \(megapixels(budget)) "
                + "(--overlay-budget; a smaller file: reel vap pack --max-edge)"
        case .budgetSpent(let needs, let playing, let inUse, let budget):
            return "refused: it makes \(megapixels(needs)) and the \(playing) gift\(playing == 1 ? "" : "s") playing make \(megapixels(inUse)) "
                + "of the gift budget of \(megapixels(budget)) (--overlay-budget)"
        }
    }
}
