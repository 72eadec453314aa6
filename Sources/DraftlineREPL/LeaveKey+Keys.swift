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
        case .profile: return "leave for the profile; the edit line is the draft"
        case .back: return "back one screen (home from the first chat); the edit line is the draft"
        case .open: return "open another chat; the edit line is the draft"
        case .command: return "a command on its own prompt; the draft stays"
        }
    }
}

/// The key sequence each function is bound to, named as a person reads it (`^X p`): the
/// defaults, or what `~/.editrc` changed them to. Every place that names a key asks here.
public struct KeyLabels: Equatable, Sendable {
    /// The sequences in libedit's notation (`^Xp`), by function.
    private var sequences: [LeaveKey: String]
    /// The sequence bound to the draft-map function, in libedit's notation.
    private var draftMapSequence = KeyLabels.draftMapDefault

    /// The name of the key function that prints the draft map above the edit line.
    public static let draftMapFunction = "draftline-drafts"
    /// Its default key, in libedit's notation.
    public static let draftMapDefault = "^Xd"

    /// The default bindings.
    public static let defaults = KeyLabels(bound: [:])

    /// The labels for the bindings in force: for each function, the sequences bound to it
    /// (as the line editor lists them, in libedit's notation). A sequence the user chose is
    /// named over the default; an unbound function keeps its default's name.
    public init(bound: [String: [String]]) {
        func pick(_ function: String, default fallback: String) -> String {
            // The Escape-led copy of a default (for vi's command mode) is not a choice.
            let keys = (bound[function] ?? []).filter { $0 != "^[" + fallback }
            return keys.first { $0 != fallback } ?? keys.first ?? fallback
        }
        sequences = Dictionary(
            uniqueKeysWithValues: LeaveKey.allCases.map { ($0, pick($0.functionName, default: $0.defaultKeys)) })
        draftMapSequence = pick(Self.draftMapFunction, default: Self.draftMapDefault)
    }

    /// The key bound to a leave function, as a person reads it: `^X p`.
    public subscript(key: LeaveKey) -> String { Self.readable(sequences[key] ?? key.defaultKeys) }

    /// The key bound to the draft-map function, as a person reads it: `^X d`.
    public var draftMap: String { Self.readable(draftMapSequence) }

    /// A sequence in libedit's notation as a person reads it: one key after another,
    /// separated by a space (`^Xp` is `^X p`, `^X^P` is `^X ^P`). A sequence led by Escape
    /// is a terminal's key (an arrow, a function key) and stays as it is.
    public static func readable(_ sequence: String) -> String {
        guard !sequence.hasPrefix("^["), !sequence.hasPrefix("\\e") else { return sequence }
        var keys: [String] = []
        var rest = Substring(sequence)
        while let first = rest.first {
            // `^X` and a backslash escape (`\\`, `\^`) are one key of two characters.
            let length = (first == "^" || first == "\\") && rest.count > 1 ? 2 : 1
            keys.append(String(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return keys.joined(separator: " ")
    }
}
