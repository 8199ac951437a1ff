import Foundation

/// One camera of a wall: its name, its main stream, and the low-resolution sub-stream that
/// the grid plays when the camera has one (the main stream is played when its tile is
/// chosen), with the credentials both need.
public struct WallCamera: Sendable, Hashable, Codable {
    /// The name its tile shows.
    public var name: String
    /// The full-resolution stream.
    public var main: String
    /// The low-resolution stream for the grid, if the camera has one.
    public var sub: String?
    /// The user name for the camera's streams, if not in their URLs.
    public var username: String?
    /// The password for the camera's streams, if not in their URLs.
    public var password: String?

    /// A camera; `sub`, `username` and `password` are optional.
    public init(name: String, main: String, sub: String? = nil, username: String? = nil, password: String? = nil) {
        self.name = name
        self.main = main
        self.sub = sub
        self.username = username
        self.password = password
    }

    /// A folder name for the camera's recordings: its name with anything but letters,
    /// digits, spaces, `.`, `_` and `-` as `_`, never `.`, `..` or empty.
    public var folderName: String {
        let kept = String(name.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || " ._-".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
        }).trimmingCharacters(in: .whitespaces)
        return kept.isEmpty || kept.allSatisfy({ $0 == "." }) ? "camera" : kept
    }

    /// What the grid plays: the sub-stream when there is one, with the credentials.
    public var gridURL: String { authenticated(sub ?? main) }

    /// What a chosen tile plays: the main stream, with the credentials.
    public var mainURL: String { authenticated(main) }

    /// `url` with the camera's credentials in its authority, percent-encoded, unless it has
    /// credentials of its own or the camera has none (or `url` is a path).
    public func authenticated(_ url: String) -> String {
        guard let username, var components = URLComponents(string: url), components.scheme != nil, components.host != nil,
              components.user == nil else { return url }
        components.user = username
        components.password = password
        return components.string ?? url
    }
}
