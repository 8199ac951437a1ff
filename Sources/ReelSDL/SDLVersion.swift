import CSDL2

/// The SDL library Reel runs on (the shared library loaded, not the headers built against).
public enum SDLVersion {
    /// `2.26.5`.
    public static var linked: String {
        var version = SDL_version()
        SDL_GetVersion(&version)
        return "\(version.major).\(version.minor).\(version.patch)"
    }
}
