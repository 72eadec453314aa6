import DraftKit
import Foundation

/// The original design's UserDefaults `save()`, the baseline a send is compared with.
extension Benchmark {
    /// Runs ``measureBaseline(config:messages:)`` in a child process with its own
    /// `XDG_CONFIG_HOME`.
    static func measureBaselineInChild(_ scratch: String, messages: Int) throws -> (save: Double, start: Double) {
        let config = "\(scratch)/defaults-\(messages)"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let figures = try child(["baseline", config, String(messages)], environment: ["XDG_CONFIG_HOME": config])
        return (figures.0, figures.1)
    }

    /// The original design: every chat in one UserDefaults property list, `save()` reads
    /// the chat's array, appends, sets it and synchronizes. Returns the median save and
    /// the time to load the suite and read one chat (its start-up). `XDG_CONFIG_HOME` must
    /// be `config` in this process's environment.
    static func measureBaseline(config: String, messages: Int) throws -> (save: Double, start: Double) {
        let suite = "draftline-baseline"
        guard ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] == config else {
            throw BenchmarkError("run the baseline with XDG_CONFIG_HOME=\(config)")
        }
        var generator = MessageGenerator(seed: 42)
        var all: [String: [Message]] = [:]
        for number in 0..<messages {
            let chat = userName(number % 1000)
            all[chat, default: []].append(generator.message(chat: chat, number: number))
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        try encoder.encode(all).write(to: URL(fileURLWithPath: "\(config)/\(suite).plist"))
        var defaults: UserDefaults?
        let start = time {
            defaults = UserDefaults(suiteName: suite)
            _ = defaults?.array(forKey: userName(0))
        }
        guard let defaults, defaults.array(forKey: userName(0))?.count == all[userName(0)]?.count else {
            throw BenchmarkError("UserDefaults did not read the baseline suite in \(config)")
        }
        var saves: [Double] = []
        let samples = messages >= 100_000 ? 3 : 10
        for index in 0..<samples {
            let message = generator.message(chat: userName(index), number: messages + index)
            saves.append(
                time {
                    var array = defaults.array(forKey: message.chatID) as? [[String: Any]] ?? []
                    array.append(message.dictionary)
                    defaults.set(array, forKey: message.chatID)
                    defaults.synchronize()
                })
        }
        return (median(saves), start)
    }
}
