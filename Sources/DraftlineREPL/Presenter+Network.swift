import DraftKit
import Glibc
import IRCClient
import IRCProtocol

/// The words of the chat server's side (`--server`, SPEC §6): why a connection could not
/// be made or was lost, and the client's events a person sees, one line each.
extension Presenter {
    /// Why a `--server` value is no server address.
    public static func describe(_ problem: ServerAddress.Problem, in text: String) -> String {
        let what: String
        switch problem {
        case .scheme: what = "it starts with neither irc:// nor ircs://"
        case .host: what = "its host is missing or holds characters no host name has"
        case .port: what = "its port is not a number from 1 to 65535"
        }
        return "--server \(TerminalText.visible(text, keepNewlines: false)): \(what)"
    }

    /// Why the identity is no nick on IRC.
    public static func noNick(_ identity: GlobalKey) -> String {
        "--as \(identity.rawValue) cannot be an IRC nick (no '.', not starting with a digit, at most 30 "
            + "characters): choose another --as"
    }

    /// Why the connection failed or ended.
    public static func describe(_ failure: IRCConnectionFailure) -> String {
        switch failure {
        case .connection(let error): return describe(error)
        case .registration(.erroneousNick(let nick, let text)):
            return "the server takes no nick \(TerminalText.visible(nick)): \(TerminalText.visible(text))"
        case .registration(.nickInUse(let nick)):
            return "the nick \(TerminalText.visible(nick)) is in use on the server: choose another --as"
        case .registration(.noWelcome(let seconds)):
            return "the server did not welcome draftline within \(Int(seconds)) s"
        case .registration(.refused(let text)):
            return "the server refused the connection: \(TerminalText.visible(text))"
        case .closedByServer: return "the server closed the connection"
        case .serverError(let text): return "the server ended the connection: \(TerminalText.visible(text))"
        case .unresponsive: return "the server stopped answering"
        }
    }

    /// A failure of the network layer: the call and its reason.
    public static func describe(_ error: ConnectionError) -> String {
        switch error.kind {
        case .system(let code): return "\(error.operation) failed: \(String(cString: strerror(code)))"
        case .resolution(_, let text): return "the server's name did not resolve: \(TerminalText.visible(text))"
        case .tls(let reason): return "TLS failed (\(error.operation)): \(TerminalText.visible(reason))"
        case .certificate(let reason):
            return "the server's certificate was not accepted: \(TerminalText.visible(reason)); "
                + "--server-ca FILE trusts a private authority"
        case .timedOut: return "the connection did not open in time"
        }
    }

    /// The line for someone else's typing in the chat on screen, when what is shown of it
    /// changed: `state` now, `was` before (a message of theirs ends it with no line).
    public func typing(_ sender: GlobalKey, _ state: TypingState, was: TypingState) -> OutputLine {
        switch state {
        case .active: return OutputLine(.info, "(\(sender) is typing)")
        case .paused: return OutputLine(.info, "(\(sender) left a draft here)")
        case .done:
            return OutputLine(
                .info, was == .paused ? "(\(sender) no longer shows a draft here)" : "(\(sender) stopped typing)")
        }
    }

    /// The line a client event shows, when it shows one: being connected, lost and back,
    /// a thread's channel refused or left, a server's notice.
    public func line(for event: IRCClientEvent, server: String) -> OutputLine? {
        switch event {
        case .connected(let nick, _, let again):
            return OutputLine(
                .info, again ? "back on \(server) as \(nick)" : "connected to \(server) as \(nick)")
        case .couldNotConnect(let failure):
            return OutputLine(.error, "could not connect to \(server): \(Self.describe(failure))")
        case .disconnected(let failure, let retry):
            return OutputLine(
                .warning,
                "disconnected from \(server): \(Self.describe(failure)); trying again in \(Int(retry.rounded())) s; "
                    + "your drafts stay, and sends fail until then")
        case .retryFailed(let failure, let retry):
            return OutputLine(
                .warning, "still not connected: \(Self.describe(failure)); trying again in \(Int(retry.rounded())) s")
        case .joinFailed(let target, let code, let text):
            return OutputLine(
                .warning,
                "could not join \(IRCAddressing.destination(of: target).name) on the server (\(code) \(TerminalText.visible(text)))"
            )
        case .left(let target, let by, let reason):
            let who = by.map { " by \(TerminalText.visible($0))" } ?? ""
            return OutputLine(
                .warning, "out of \(IRCAddressing.destination(of: target).name)\(who): \(TerminalText.visible(reason))")
        case .serverNotice(let text):
            return OutputLine(.info, "server: \(TerminalText.visible(text))")
        case .overlongLines(let count):
            return OutputLine(
                .warning, "the server sent \(Self.counted(count, "line")) too long to read: dropped")
        case .unplaced(let sender, let conversation):
            return OutputLine(
                .info,
                "a message from \(TerminalText.visible(sender)) in \(TerminalText.visible(conversation.name)) "
                    + "belongs to no draftline chat: not kept")
        case .arrived, .acknowledged, .failed, .joined, .nickChanged, .typing:
            return nil
        }
    }
}
