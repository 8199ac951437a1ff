/// What a live input's reconnects came to while it played. A reconnect replaces the
/// session, whose counters start again; these are the player's and last until the next
/// ``Player/open(_:)``.
struct ReconnectTally {
    /// Seconds from the start of the attempt that succeeded to the first picture on screen,
    /// and from the loss of the input to that picture.
    typealias FirstPicture = (afterAttempt: Double, afterLoss: Double)

    /// Reconnects that played again.
    private(set) var count = 0
    /// The last reconnect's first picture.
    private(set) var firstPicture: FirstPicture?
    private var awaited: Awaited?

    /// A reconnect under way: the generation its sessions carry, when the input was lost,
    /// and what was heard of it so far. Its new session may show its first picture before
    /// the reconnect is announced, or after.
    private struct Awaited {
        let generation: Int
        let lostAt: Double
        var announced = false
        var picture: FirstPicture?
    }

    /// The input was lost at `time`; its next sessions carry `generation`.
    mutating func lost(at time: Double, generation: Int) {
        awaited = Awaited(generation: generation, lostAt: time)
    }

    /// The reconnect of `generation` plays again and is announced: its first picture's
    /// figures when that picture was shown already, to announce after it.
    mutating func playsAgain(generation: Int) -> FirstPicture? {
        guard var awaited, awaited.generation == generation else { return nil }
        count += 1
        awaited.announced = true
        self.awaited = awaited
        guard let picture = awaited.picture else { return nil }
        return announce(picture)
    }

    /// The first picture of a session of `generation` is on screen at `now`, `afterAttempt`
    /// seconds after its open began: its figures when a reconnect was announced already.
    mutating func firstPictureShown(generation: Int, afterAttempt: Double, at now: Double) -> FirstPicture? {
        guard var awaited, awaited.generation == generation, awaited.picture == nil else { return nil }
        let picture = (afterAttempt: afterAttempt, afterLoss: now - awaited.lostAt)
        awaited.picture = picture
        self.awaited = awaited
        return awaited.announced ? announce(picture) : nil
    }

    private mutating func announce(_ picture: FirstPicture) -> FirstPicture {
        awaited = nil
        firstPicture = picture
        return picture
    }

    func write(into statistics: inout PlayerStatistics) {
        statistics.reconnects = count
        statistics.firstPictureAfterReconnect = firstPicture?.afterAttempt
        statistics.reconnectOutage = firstPicture?.afterLoss
    }
}
