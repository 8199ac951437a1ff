/// A rectangle of pixels: origin at the top left, sizes in pixels.
public struct PixelRect: Sendable, Hashable, Codable {
    /// Column of the left edge.
    public var x: Int
    /// Row of the top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle is non-empty and lies inside a `width`×`height` picture.
    public func fits(width outerWidth: Int, height outerHeight: Int) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && x <= outerWidth - width && y <= outerHeight - height
    }
}
