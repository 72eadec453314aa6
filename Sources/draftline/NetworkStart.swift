import DraftKit
import DraftlineREPL
import Glibc
import IRCClient

/// `--server`: the chat server as the session's other side (SPEC §6). Connects as the
/// identity's nick and waits for the welcome before the session starts, so that a server
/// that cannot be used is one line and exit status 2, never a session that fails each send.
enum NetworkStart {
    /// The server's transport and its welcome (``IRCClientEvent/connected(nick:capabilities:again:)``),
    /// or the line that says why there is none.
    static func connect(
        to url: String, _ options: Options, history: any HistoryStore
    ) -> Result<(IRCTransport, IRCClientEvent), UsageError> {
        let address: ServerAddress
        do throws(ServerAddress.Problem) { address = try ServerAddress(parsing: url) } catch {
            return .failure(UsageError(Presenter.describe(error, in: url)))
        }
        guard let nick = IRCAddressing.nick(for: options.identity) else {
            return .failure(UsageError(Presenter.noNick(options.identity)))
        }
        func failed(_ failure: IRCConnectionFailure) -> Result<(IRCTransport, IRCClientEvent), UsageError> {
            let line = Presenter().line(for: .couldNotConnect(failure), server: address.description)
            return .failure(UsageError(line?.text ?? Presenter.describe(failure)))
        }
        let client: IRCClient
        do throws(ConnectionError) {
            client = try IRCClient(
                options: IRCClient.Options(
                    server: address, nick: nick, caFile: options.serverCA, sendsTyping: options.sendsTyping))
        } catch {
            return failed(.connection(error))
        }
        client.start()
        let transport = IRCTransport(client: client, history: history, identity: options.identity)
        // The client's own welcome timeout ends the wait; this deadline only bounds it.
        let deadline = IRCClient.monotonicNow() + client.options.welcomeTimeout + 5
        while IRCClient.monotonicNow() < deadline {
            var entry = pollfd(fd: transport.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 250)
            _ = transport.take()
            for event in transport.takeEvents() {
                switch event {
                case .connected: return .success((transport, event))
                case .couldNotConnect(let failure): return failed(failure)
                default: continue
                }
            }
        }
        client.quit(timeout: 0)
        return failed(.registration(.noWelcome(seconds: client.options.welcomeTimeout)))
    }
}
