import DraftKit
import Foundation
import IRCProtocol

/// A chat server as the other side (SPEC §6): the session's ``Transport`` over an
/// ``IRCClient``.
///
/// A send goes out as PRIVMSG lines and is in flight until the server has it (its echo
/// with `echo-message`, else the lines written): then it is stored in this side's history
/// and told as acknowledged; a refusal (not connected, `401`, `404`, a line cut, the
/// connection gone) is told as failed, nothing stored, and the session gives the text
/// back (SPEC §1a). A message the server brings for a draftline chat is stored once in
/// this side's history, under the server's `msgid` when it gives one, and arrives as from
/// the journal. What else the client says (connected, lost, typing) is kept for the front
/// end (``takeEvents()``).
public final class IRCTransport: Transport {
    /// The connection.
    public let client: IRCClient
    /// This side's history: what was sent and what arrived.
    public let history: any HistoryStore
    /// Who this side is: its nick.
    public let identity: GlobalKey
    /// Sends the server has not answered yet, by the client's ID.
    private var inFlight: [SendID: (message: Message, chat: ChatID)] = [:]
    /// The server's IDs of messages stored already, the newest last (bounded).
    private var stored: [String] = []
    private var storedSet: Set<String> = []
    /// Client events that are no send's fate, oldest first (arrivals too, stored and given
    /// in the slice already: beside the typing they end).
    private var events: [IRCClientEvent] = []
    /// How many arrivals without a server ID this transport has named.
    private var unnamed = 0
    /// The client's events that the last take left for the next, oldest first.
    private var backlog: ArraySlice<IRCClientEvent> = []
    /// Whether the client's last take left more to read.
    private var clientHasMore = false
    /// The arrival a take gave alone, not stored yet: shown first, then stored
    /// (``storeShown()``), so that a message is on the screen without waiting for its
    /// durable append; anything stored after it stores it first, so history keeps the
    /// order of arrival.
    private var unstored: (message: Message, chat: ChatID)?

    /// The longest a take stores for (its first arrival or fate is always handled): a flood
    /// of messages, each a durable append, keeps a key waiting no longer than this.
    public static let secondsPerTake = 0.01

    /// How many server IDs are remembered to store an arrival once.
    public static let remembered = 4096

    public init(client: IRCClient, history: any HistoryStore, identity: GlobalKey) {
        self.client = client
        self.history = history
        self.identity = identity
    }

    public var descriptor: Int32 { client.descriptor }

    /// Anyone on the server: a nick nobody holds is told at the send (`401`).
    public var reachesAnyone: Bool { true }

    /// Hands `message` to the server: in flight until it answers (``take()``), or failed
    /// at once when it cannot go.
    public func send(_ message: Message, to chat: ChatID) -> Delivery {
        guard let target = Self.target(of: chat, message: message) else {
            return .failed(.notDelivered(.unsendable("the chat \(chat) has no address on the server")))
        }
        do throws(SendRefusal) {
            let id = try client.send(Self.content(of: message), to: target)
            inFlight[id] = (message, chat)
            return .inFlight
        } catch {
            return .failed(.notDelivered(Self.failure(error)))
        }
    }

    /// What the server brought since the last take: arrivals stored and given, and the
    /// fate of sends in flight. A take stores for at most ``secondsPerTake`` (each arrival
    /// is a durable append): what the client brought beyond is kept for the next take, and
    /// the slice says more is waiting, so that keys come first between them.
    public func take() -> FeedSlice {
        if backlog.isEmpty {
            let slice = client.take()
            backlog = slice.events[...]
            clientHasMore = slice.hasMore
        }
        var result = FeedSlice(warnings: storeShown())
        let started = IRCClient.monotonicNow()
        while let event = backlog.first,
            result.arrivals.isEmpty && result.deliveries.isEmpty
                || IRCClient.monotonicNow() - started < Self.secondsPerTake
        {
            backlog.removeFirst()
            switch event {
            case .arrived(let arrival):
                let chat = arrival.target.chatID(as: identity)
                if let id = arrival.messageID, storedSet.contains(id) { continue }
                let message = message(arrival, in: chat)
                if let id = arrival.messageID { remember(id) }
                if result.arrivals.isEmpty && result.deliveries.isEmpty {
                    unstored = (message, chat)
                } else {
                    result.warnings += storeShown() + store(message, in: chat)
                }
                result.arrivals.append(Arrival(chat: chat, message: message))
                events.append(event)
            case .acknowledged(let id, _, let serverID):
                guard let (message, chat) = inFlight.removeValue(forKey: id) else { continue }
                var warnings = storeShown()
                do throws(StoreError) {
                    warnings += try history.append(message, to: chat)
                    if let serverID { remember(serverID) }
                } catch {
                    warnings.append(.sentNotKept(chat, error))
                }
                result.deliveries.append(Delivered(messageID: message.messageID, delivery: .acknowledged(warnings)))
            case .failed(let id, let failure, _):
                guard let (message, _) = inFlight.removeValue(forKey: id) else { continue }
                result.deliveries.append(
                    Delivered(messageID: message.messageID, delivery: .failed(.notDelivered(Self.failure(failure)))))
            default:
                events.append(event)
            }
        }
        result.hasMore = clientHasMore || !backlog.isEmpty
        return result
    }

    /// Stores the arrival the last take gave alone (``unstored``), once it is shown: what
    /// the store said of it; none when there is none.
    public func storeShown() -> [StoreWarning] {
        guard let (message, chat) = unstored else { return [] }
        unstored = nil
        return store(message, in: chat)
    }

    /// Appends an arrival to this side's history: what the store said of it.
    private func store(_ message: Message, in chat: ChatID) -> [StoreWarning] {
        do throws(StoreError) { return try history.append(message, to: chat) } catch {
            return [.arrivalNotKept(chat, error)]
        }
    }

    /// What an event of the session did, for the server: the draft's state for the other
    /// side (SPEC §6), from what the session reports became of a chat's draft: kept by a
    /// leave (`paused`), gone (`done`); and the chat now on `screen`: a thread's channel is
    /// joined when the thread is opened (the client joins it again after every reconnect).
    /// The client sends only what ``TypingNotifier`` decides, and never any of the text. A
    /// send needs no `done`: its message ends the typing for the receiver, as IRCv3's
    /// typing specification says.
    public func follow(_ reports: [Report], on screen: Screen) {
        for case .draft(let event) in reports {
            guard let key = event.key, let change = Self.change(for: event) else { continue }
            client.note(change, in: key.target)
        }
        if let target = screen.target { client.open(target) }
    }

    /// The user edited the line of `target` on a terminal, which holds `text` now: `active`
    /// (at most every 3 s, as ``TypingNotifier`` decides) while it holds a message, `done`
    /// once it holds none (emptied, or a command: `/…` but not `//…`, as the session reads
    /// a line). Only the state travels, never the text.
    public func edited(_ text: String, in target: InputTarget) {
        let isMessage = !text.isEmpty && (!text.hasPrefix("/") || text.hasPrefix("//"))
        client.note(.edited(hasText: isMessage), in: target)
    }

    /// What a draft event did to its chat's input, for its typing state.
    static func change(for event: DraftEvent) -> IRCClient.InputChange? {
        switch event.cause {
        case .left, .leftEmpty, .leftByCommand:
            return .left(hasDraft: event.kind != .removed && !event.draft.isEmpty)
        case .sending, .blankLine, .replacedBySend, .sendFailedAside, .interrupted, .discardCommand, .quitting:
            return event.kind == .unchanged ? nil : .draftGone
        case .attached, .detached, .entering, .sendFailed, .replacedByRecall, .recallEdited, .keptOverRecall,
            .editedAroundCommand, .lineTooLong, .nowhereToKeep, .undo, .undoStackFull:
            return nil
        }
    }

    /// The client's events since the last call that were no send's fate, oldest first: an
    /// arrival is among them (after the `done` of its sender's typing there), though
    /// ``take()`` gave it already.
    public func takeEvents() -> [IRCClientEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Remembers a server ID stored, forgetting the oldest past ``remembered``.
    private func remember(_ id: String) {
        guard storedSet.insert(id).inserted else { return }
        stored.append(id)
        if stored.count > Self.remembered * 2 {
            for old in stored.prefix(stored.count - Self.remembered) { storedSet.remove(old) }
            stored.removeFirst(stored.count - Self.remembered)
        }
    }

    /// The message an arrival is, as this side stores it: from its sender, at the server's
    /// time when given (else now), under the server's ID when given.
    private func message(_ arrival: IRCArrival, in chat: ChatID) -> Message {
        let sentAt = arrival.time.map { Date(timeIntervalSince1970: $0) } ?? Date()
        let id: String
        if let serverID = arrival.messageID {
            id = "irc-" + serverID
        } else {
            unnamed += 1
            id = "irc-\(Int64((sentAt.timeIntervalSince1970 * 1000).rounded(.down)))-\(unnamed)"
        }
        let other: String
        switch arrival.target {
        case .privateChat: other = identity.rawValue
        case .comment(_, _, let replyTo): other = replyTo?.rawValue ?? ""
        }
        var message = Message(
            chatID: chat.rawValue, messageID: id, content: "", target: other, mineHead: arrival.sender.rawValue,
            otherHead: other, sentAt: sentAt, sender: arrival.sender.rawValue)
        switch arrival.content {
        case .text(let text):
            message.content = text
        case .location(let latitude, let longitude, let address):
            message.type = "location"
            message.latitude = latitude
            message.longitude = longitude
            message.address = address
        case .attachment:
            message.content = arrival.content.line
        }
        return message
    }

    /// Where a message of this side's goes: the private chat with its `target`, or the
    /// thread its chat names (a reply to its `target`, when it has one).
    static func target(of chat: ChatID, message: Message) -> InputTarget? {
        let other = try? GlobalKey(validating: message.target)
        switch chat.kind {
        case .privateChat:
            return other.map(InputTarget.privateChat)
        case .thread:
            guard case .comment(let kind, let id, _)? = IRCAddressing.thread(forChannel: "#" + chat.rawValue) else {
                return nil
            }
            return .comment(kind, id: id, replyTo: other)
        }
    }

    /// What of a message travels: a location as a `geo:` URI, an attachment as its name
    /// (the file stays here), text as it is.
    static func content(of message: Message) -> WireContent {
        if message.type == "location" {
            return .location(latitude: message.latitude, longitude: message.longitude, address: message.address)
        }
        if !message.filePath.isEmpty {
            return .attachment(name: (message.filePath as NSString).lastPathComponent)
        }
        return .text(message.content)
    }

    /// A client's refusal as a delivery failure.
    static func failure(_ refusal: SendRefusal) -> DeliveryFailure {
        switch refusal {
        case .notConnected: return .notConnected
        case .text(let why): return .unsendable("\(why)")
        case .invalidTarget(let name): return .unsendable("no nick or channel is called \(name)")
        }
    }

    /// A server's answer as a delivery failure.
    static func failure(_ failure: SendFailure) -> DeliveryFailure {
        switch failure {
        case .noSuchNick(let nick): return .noSuchUser(nick)
        case .cannotSendToChannel(let channel): return .channelRefused(channel)
        case .refused(let code, let text): return .refused(code: code, text: text)
        case .cut(let sent, let relayed): return .cut(sent: sent, relayed: relayed)
        case .disconnected: return .connectionLost
        case .noAnswer: return .noAnswer
        }
    }
}
