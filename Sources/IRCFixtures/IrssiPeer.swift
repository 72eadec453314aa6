import Foundation
import Glibc
import ProgramDriver

/// irssi as the other side of a test: run in tmux on a private socket, typed into with
/// `send-keys`, read through its logs (autolog), stopped by its process ID.
public final class IrssiPeer {
    public let nick: String
    /// Its home (config, logs) and tmux's socket.
    public let directory: String
    /// irssi's process ID (tmux's pane).
    public let pid: pid_t
    private var socketPath: String { directory + "/tmux.sock" }

    /// Starts irssi as `nick` on 127.0.0.1:`port`, unthrottled (`cmd_queue_speed`), logging
    /// every query and channel.
    public init(port: Int, nick: String) throws {
        self.nick = nick
        var template = Array((NSTemporaryDirectory() + "/draftline-irssi-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PseudoTerminal.Failure(description: "mkdtemp failed") }
        directory = String(cString: made)
        let config = """
            settings = {
              core = { real_name = "\(nick)"; user_name = "\(nick)"; nick = "\(nick)"; };
              "fe-common/core" = { autolog = "yes"; autolog_path = "\(directory)/logs/$tag/$0.log"; };
              "irc/core" = { cmd_queue_speed = "0msec"; cmds_max_at_once = "0"; };
            };
            """
        try config.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        let command = "/usr/bin/irssi --home=\(directory) -n \(nick) -c 127.0.0.1 -p \(port)"
        try Self.tmux(
            directory + "/tmux.sock", ["new-session", "-d", "-x", "200", "-y", "50", command], home: directory)
        let shown = try Self.tmux(directory + "/tmux.sock", ["display-message", "-p", "#{pane_pid}"], home: directory)
        guard let pid = pid_t(shown.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PseudoTerminal.Failure(description: "tmux gave no pane pid: \(shown)")
        }
        self.pid = pid
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Types `text` (literally: no key names) and Enter.
    public func type(_ text: String) throws {
        try Self.tmux(socketPath, ["send-keys", "-t", "0", "-l", text], home: directory)
        try Self.tmux(socketPath, ["send-keys", "-t", "0", "Enter"], home: directory)
    }

    /// What irssi logged in its window with `target` (a query's nick or a channel).
    public func log(of target: String) -> String {
        let root = directory + "/logs"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.lowercased().hasSuffix("/\(target.lowercased()).log") }
            .compactMap { try? String(contentsOfFile: root + "/" + $0, encoding: .utf8) }.joined()
    }

    /// Waits until the window with `target` logged `text`.
    public func waitForLog(of target: String, containing text: String, timeout: Double = 15) throws {
        let deadline = PseudoTerminal.now() + timeout
        while !log(of: target).contains(text) {
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(
                    description:
                        "irssi did not log '\(text)' with \(target) within \(timeout) s: \(log(of: target).suffix(500))"
                )
            }
            usleep(20_000)
        }
    }

    /// Stops irssi by its process ID (SIGTERM, then SIGKILL after 2 s), then tmux.
    public func stop() {
        kill(pid, SIGTERM)
        let deadline = PseudoTerminal.now() + 2
        while kill(pid, 0) == 0 && PseudoTerminal.now() < deadline { usleep(10_000) }
        kill(pid, SIGKILL)
        _ = try? Self.tmux(socketPath, ["kill-server"], home: directory)
    }

    @discardableResult
    static func tmux(_ socket: String, _ arguments: [String], home: String) throws -> String {
        let run = try ServerProcess.run(
            ["/usr/bin/tmux", "-S", socket] + arguments,
            environment: ["HOME": home, "TERM": "xterm-256color"], outputPath: home + "/tmux.out")
        guard run.status == 0 || arguments == ["kill-server"] else {
            throw PseudoTerminal.Failure(description: "tmux \(arguments.first ?? ""): \(run.output)")
        }
        return run.output
    }
}
