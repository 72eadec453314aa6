/// The other side of a session, in one place: where messages go and come from (the
/// outbox's ``Transport``), the sends still in flight, the chats with unread messages,
/// what `/wait` has not counted yet, and the demo peers.
///
/// The session (`Session+Live.swift`) decides what each arrival and each delivery means
/// for the screen and the drafts; this type holds the state it keeps between events, and
/// nothing else does: state a new command keeps about the other side (people muted, a
/// filter) goes here too, and `Session.shown(_:)` reads it.
public final class LiveState {
    /// A message handed over whose fate is not known yet.
    public struct InFlight: Equatable, Sendable {
        public var message: Message
        /// Where it was sent from.
        public var target: InputTarget
        /// The part of the draft it carries (its text or its attachment), for a failure to
        /// give back; empty for a location.
        public var part: DraftContents
    }

    /// Composes the user's messages and hands them to the transport.
    let outbox: Outbox
    /// People who answer what is sent to them (`--demo`).
    public let peers: DemoPeers?
    /// Messages that arrived in chats that were not open, by chat, since each was last
    /// opened. In memory, like drafts: a new session starts with none.
    public internal(set) var unread: [ChatID: Int] = [:]
    /// Messages that arrived (shown in the open chat or announced) that no `/wait` has
    /// counted yet: a wait counts these first, so an arrival between two lines of a
    /// script is never missed.
    public internal(set) var arrivalsNotWaitedFor = 0
    /// Sends handed over and not yet acknowledged or refused, by message ID (the data
    /// directory acknowledges at once: none stays here).
    public internal(set) var inFlight: [String: InFlight] = [:]
    /// Sends refused after the session quit: no draft takes their text back any more, so
    /// quitting names them (``Session/endQuit()``).
    var refusedAfterQuit: [Message] = []

    init(outbox: Outbox, peers: DemoPeers?) {
        self.outbox = outbox
        self.peers = peers
    }

    /// Where messages go and come from.
    public var transport: any Transport { outbox.transport }

    /// Counts an arrival for the next `/wait`.
    func counted() { arrivalsNotWaitedFor += 1 }

    /// Takes up to `wanted` arrivals off the count for a wait that ends; how many it got.
    func takeArrivals(_ wanted: Int?) -> Int {
        let taken = min(arrivalsNotWaitedFor, wanted ?? arrivalsNotWaitedFor)
        arrivalsNotWaitedFor = wanted == nil ? 0 : arrivalsNotWaitedFor - taken
        return taken
    }

    /// The demo peers' answers that are due, stored; a line for each that could not be.
    func answerPeers() -> [Report] {
        guard let peers else { return [] }
        let answered = peers.answerDue()
        return answered.errors.map { .error(.peerReplyNotStored($0.peer, $0.error)) }
            + answered.warnings.map { .warning(.store($0)) } + peerSilences()
    }

    /// One line for each demo peer that fell silent since the last look, never twice.
    func peerSilences() -> [Report] {
        peers?.takeSilences().map { .peerSilenced($0.peer, $0.why) } ?? []
    }

    /// Tells the demo peers what `identity` sent them; a line for each that fell silent.
    func heard(_ sent: [Message], from identity: GlobalKey, to target: InputTarget) -> [Report] {
        guard let peers, case .privateChat(let user) = target else { return [] }
        for message in sent { peers.heard(message, from: identity, to: user) }
        return peerSilences()
    }
}
