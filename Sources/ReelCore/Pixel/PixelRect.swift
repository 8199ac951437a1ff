/// A rectangle of pixels: origin at the top left, sizes in pixels.
public struct PixelRect: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

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
