import DraftKit

/// The keys of the leave functions: their names in `~/.editrc`, their default bindings,
/// and their bytes in a piped line.
extension LeaveKey {
    /// The name the function is registered under, for `bind` lines in `~/.editrc`.
    public var functionName: String { "draftline-\(rawValue)" }

    /// The default key sequence, in libedit's notation.
    public var defaultKeys: String { "^X\(suffix)" }

    /// The key's last byte after `^X` (0x18); a piped line ending with both bytes acts as
    /// the key.
    public var suffix: Character {
        switch self {
        case .profile: return "p"
        case .back: return "b"
        case .open: return "o"
        case .command: return "/"
        }
    }

    /// What the function does, for `/help` and libedit's function list.
    public var help: String {
        switch self {
        case .profile: return "leave to the profile, keeping the edit line as the draft"
        case .back: return "go back, keeping the edit line as the draft"
        case .open: return "open another chat, keeping the edit line as the draft"
        case .command: return "run a command on its own prompt; the draft is back after it"
        }
    }

    /// The leave key whose function has this name.
    public init?(functionName: String) {
        guard let key = Self.allCases.first(where: { $0.functionName == functionName }) else { return nil }
        self = key
    }
}

/// The key sequence each function is bound to, as the user sees it: the defaults, or
/// what `~/.editrc` changed them to. Every place that names a key asks here.
public struct KeyLabels: Equatable, Sendable {
    private var labels: [LeaveKey: String]
    /// The sequence bound to the draft-map function.
    public var draftMap = KeyLabels.draftMapDefault

    /// The name of the key function that prints the draft map above the edit line.
    public static let draftMapFunction = "draftline-drafts"
    /// Its default key.
    public static let draftMapDefault = "^Xd"

    /// The default bindings.
    public static let defaults = KeyLabels(
        labels: Dictionary(
            uniqueKeysWithValues: LeaveKey.allCases.map {
                ($0, $0.defaultKeys)
            }))

    private init(labels: [LeaveKey: String]) { self.labels = labels }

    /// The labels for the bindings in force: for each function, the sequences bound to it
    /// (as the line editor lists them). A sequence the user chose is named over the
    /// default; an unbound function keeps its default's name.
    public init(bound: [String: [String]]) {
        func pick(_ function: String, default fallback: String) -> String {
            // The Escape-led copy of a default (for vi's command mode) is not a choice.
            let keys = (bound[function] ?? []).filter { $0 != "^[" + fallback }
            return keys.first { $0 != fallback } ?? keys.first ?? fallback
        }
        labels = Dictionary(
            uniqueKeysWithValues: LeaveKey.allCases.map { ($0, pick($0.functionName, default: $0.defaultKeys)) })
        draftMap = pick(Self.draftMapFunction, default: Self.draftMapDefault)
    }

    /// The sequence bound to a leave function, in libedit's notation (`^Xp`).
    public subscript(key: LeaveKey) -> String {
        get { labels[key] ?? key.defaultKeys }
        set { labels[key] = newValue }
    }
}
