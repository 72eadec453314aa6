/// A key function that leaves the current input target with the edit buffer saved as
/// its draft: the terminal's equivalent of tapping the avatar or the back button while
/// text is in the input box.
public enum LeaveKey: String, CaseIterable, Sendable {
    /// `^X p`: leave to the chat user's profile.
    case profile
    /// `^X b`: go back to the previous screen.
    case back
    /// `^X o`: open another chat (asks for its name).
    case open

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
        }
    }

    /// What the function does, for `/help` and libedit's function list.
    public var help: String {
        switch self {
        case .profile: return "leave to the profile, keeping the edit line as the draft"
        case .back: return "go back, keeping the edit line as the draft"
        case .open: return "open another chat, keeping the edit line as the draft"
        }
    }

    /// The leave key whose function has this name.
    public init?(functionName: String) {
        guard let key = Self.allCases.first(where: { $0.functionName == functionName }) else { return nil }
        self = key
    }
}
