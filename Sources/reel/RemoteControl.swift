import Foundation
import Reel

/// Control of `reel play` from other programs: mpv's JSON IPC on a Unix socket
/// (`--input-ipc-server`) and MPRIS on the session D-Bus (media keys, playerctl), and
/// the exit code a client's `quit N` asked for.
final class RemoteControl: @unchecked Sendable {
    private let ipc: MPVIPCServer?
    private let mpris: MPRISService?
    private let exit = ExitRequest()

    /// - Parameters:
    ///   - socket: where to listen for mpv's JSON IPC, if anywhere.
    ///   - mpris: whether to be an MPRIS player, when there is a session bus to be one on.
    ///   - makeGift: makes the animations the IPC's `gift-start` asks for.
    init(socket: String?, mpris: Bool, player: Player, makeGift: @escaping @Sendable (OverlayRequest) throws -> any OverlayAnimation) throws {
        let exit = exit
        ipc = try socket.map { path in
            try MPVIPCServer(path: path, player: player, makeGift: makeGift) { code in
                exit.set(code)
                player.stop()
            }
        }
        var service: MPRISService?
        if mpris, ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil {
            do {
                service = try MPRISService(player: player) { player.stop() }
            } catch {
                FileHandle.standardError.write(Data("reel: MPRIS: \(error); media keys will not reach this player\n".utf8))
            }
        }
        self.mpris = service
    }

    /// The exit code `quit` asked for; 0 when none did.
    var exitCode: Int32 { exit.code }

    /// Tells the clients what `event` changed.
    func forward(_ event: PlayerEvent) {
        ipc?.forward(event)
        mpris?.forward(event)
    }

    /// Whether `event` ends the session: the player going idle does, unless a client's
    /// `loadfile` or `OpenUri` is opening another input (the player passes through idle
    /// on the way).
    func ends(at event: PlayerEvent, player: Player) -> Bool {
        guard case .stateChanged(.idle) = event else { return false }
        return ipc?.isLoading != true && mpris?.isLoading != true && player.state == .idle
    }

    func close() {
        ipc?.close()
        mpris?.close()
    }

    private final class ExitRequest: @unchecked Sendable {
        private let lock = NSLock()
        private var requested: Int32 = 0
        var code: Int32 { lock.withLock { requested } }
        func set(_ code: Int) { lock.withLock { requested = Int32(clamping: code) } }
    }
}
