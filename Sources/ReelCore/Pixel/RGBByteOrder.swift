/// Where red, green, blue and alpha sit in a 4-byte pixel; a type so that each order
/// gets its own specialised (and vectorised) loop.
protocol RGBByteOrder {
    static var red: Int { get }
    static var blue: Int { get }
}

enum BGRAOrder: RGBByteOrder {
    static var red: Int { 2 }
    static var blue: Int { 0 }
}

enum RGBAOrder: RGBByteOrder {
    static var red: Int { 0 }
    static var blue: Int { 2 }
}
