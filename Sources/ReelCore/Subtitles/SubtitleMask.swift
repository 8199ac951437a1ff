/// A piece of a rendered subtitle: a coverage mask painted in one colour, placed on the
/// picture. libass renders text (glyphs, their outlines and shadows) as a list of these.
public struct SubtitleMask: Sendable, Equatable {
    /// The mask's top left corner on the picture, in pixels; it may lie partly outside.
    public var x: Int
    /// See ``x``.
    public var y: Int
    /// The mask's size in pixels.
    public var width: Int
    /// See ``width``.
    public var height: Int
    /// How much of each pixel the colour covers, 0 to 255, row after row (`width` a row).
    public var coverage: [UInt8]
    /// The colour, as red, green and blue.
    public var red: UInt8
    /// See ``red``.
    public var green: UInt8
    /// See ``red``.
    public var blue: UInt8
    /// How opaque the colour is where the mask covers fully: 255 opaque, 0 invisible.
    public var opacity: UInt8

    /// A mask of `width`×`height` coverage values placed at (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int, coverage: [UInt8], red: UInt8, green: UInt8, blue: UInt8, opacity: UInt8) {
        precondition(coverage.count == width * height, "coverage must hold width × height values")
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.coverage = coverage
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }
}
