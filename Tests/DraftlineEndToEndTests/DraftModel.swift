/// A reference model of draftline's draft rules (SPEC §1 and §1a), written apart from
/// the code under test: its own small types, its own reading of the rules. The
/// model-based test drives the real binary and this model with the same actions and
/// compares what each holds.
struct DraftModel {
    /// An edit line or a text draft: text and cursor, in Unicode scalars.
    struct Line: Equatable, CustomStringConvertible {
        var scalars: [Unicode.Scalar] = []
        var cursor = 0

        init(_ text: String = "", cursor: Int? = nil) {
            scalars = Array(text.unicodeScalars)
            self.cursor = cursor ?? scalars.count
        }

        var text: String { String(String.UnicodeScalarView(scalars)) }
        var isEmpty: Bool { scalars.isEmpty }
        var description: String { "\(text.debugDescription)@\(cursor)" }

        mutating func insert(_ typed: String) {
            let new = Array(typed.unicodeScalars)
            scalars.insert(contentsOf: new, at: cursor)
            cursor += new.count
        }
    }

    enum Screen: Equatable {
        case home
        case chat(String)
        case profile(String)

        var prompt: String {
            switch self {
            case .home: return "draftline> "
            case .chat(let user): return "\(user)> "
            case .profile(let user): return "profile \(user)> "
            }
        }

        var user: String? {
            if case .chat(let user) = self { return user }
            return nil
        }
    }

    /// One entry of the undo stack.
    struct Lost: Equatable {
        var key: String
        var text: Line?
        var media: Int
    }

    /// A stored message: its type and content.
    struct Sent: Equatable, CustomStringConvertible {
        var type: String
        var content: String
        var description: String { "\(type):\(content.debugDescription)" }
    }

    var stack: [Screen] = [.home]
    var line = Line()
    var drafts: [String: Line] = [:]
    var media: [String: Int] = [:]
    var undo: [Lost] = []
    var sent: [String: [Sent]] = [:]
    /// libedit's history of entered lines (up to 1,000, no two equal in a row), and the
    /// lines as the history file keeps them (the last 500, as entered).
    var history: [String] = []
    var savedHistory: [String] = []
    var quitPending = false
    var hasQuit = false

    var screen: Screen { stack[stack.count - 1] }

    static func key(_ user: String) -> String { "privateMessage_\(user)" }

    /// The draft map as `/drafts` lists it: key, text (nil for none), cursor, media count.
    var draftMap: [String] {
        Set(drafts.keys).union(media.keys).sorted().map { key in
            let text = drafts[key].map { "\"\($0.text)\"" } ?? "(no text)"
            return "\(key)  \(text)  cursor \(drafts[key]?.cursor ?? 0)  media \(media[key] ?? 0)"
        }
    }

    // MARK: - The rules

    private mutating func push(_ key: String, _ text: Line?, _ count: Int) {
        guard text != nil || count > 0 else { return }
        undo.append(Lost(key: key, text: text, media: count))
        if undo.count > 20 { undo.removeFirst() }
    }

    /// The line a screen starts with: its chat's draft.
    private mutating func arrive() {
        line = screen.user.flatMap { drafts[Self.key($0)] } ?? Line()
    }

    /// A leave key: the line becomes the chat's draft (an empty line removes it, onto the
    /// undo stack).
    private mutating func keepLine() {
        guard let user = screen.user else { return }
        let key = Self.key(user)
        if line.isEmpty {
            if let old = drafts.removeValue(forKey: key) { push(key, old, 0) }
        } else {
            drafts[key] = line
        }
    }

    mutating func leaveBack() {
        keepLine()
        stack.removeLast()
        arrive()
    }

    mutating func leaveToProfile() {
        keepLine()
        if let user = screen.user { stack.append(.profile(user)) }
        arrive()
    }

    /// `^X o` then a name.
    mutating func leaveToOpen(_ user: String) {
        keepLine()
        open(user)
    }

    /// `^X /` then a command: the draft is back afterwards.
    mutating func commandKey(_ command: String) {
        keepLine()
        run(command)
    }

    mutating func open(_ user: String) {
        if screen != .chat(user) { stack.append(.chat(user)) }
        if stack.count > 64 { stack.remove(at: 1) }
        arrive()
    }

    /// A command, run with the line left as it is in the store: the next line is the
    /// screen's draft.
    mutating func run(_ command: String) {
        let words = command.split(separator: " ").map(String.init)
        switch words.first {
        case "/open": open(words[1])
        case "/back":
            if stack.count > 1 { stack.removeLast() }
        case "/discard":
            if let user = screen.user {
                let key = Self.key(user)
                if drafts[key] != nil || media[key] != nil {
                    push(key, drafts.removeValue(forKey: key), media.removeValue(forKey: key) ?? 0)
                }
            }
        case "/undo":
            if let last = undo.popLast() {
                let text = drafts.removeValue(forKey: last.key)
                let count = media.removeValue(forKey: last.key) ?? 0
                push(last.key, text, count)
                if let restored = last.text { drafts[last.key] = restored }
                if last.media > 0 { media[last.key] = last.media }
            }
        case "/attach":
            if let user = screen.user { media[Self.key(user), default: 0] += 1 }
        default: break  // /drafts, /chats: nothing changes
        }
        arrive()
    }

    /// Enter on the line: a command, or a send.
    mutating func enter(command: String? = nil) {
        let text = line.text
        if let command {
            remember(command)
            run(command)
            return
        }
        remember(text)
        if text.hasPrefix("/") {
            run(text)
            return
        }
        guard let user = screen.user else { return }
        let key = Self.key(user)
        let draft = drafts.removeValue(forKey: key)
        let count = media.removeValue(forKey: key) ?? 0
        let blank = text.allSatisfy(\.isWhitespace)
        if blank && count == 0 {
            push(key, draft, 0)
        } else {
            if let draft, !Self.inOrder(draft.text, in: text) { push(key, draft, 0) }
            sent[user, default: []] += Array(repeating: Sent(type: "image", content: ""), count: count)
            if !blank { sent[user, default: []].append(Sent(type: "text", content: text)) }
        }
        arrive()
    }

    /// The edit line's history, as libedit keeps it (no two equal lines in a row).
    mutating func remember(_ entered: String) {
        guard !entered.isEmpty else { return }
        savedHistory = Array((savedHistory + [entered]).suffix(500))
        guard history.last != entered else { return }
        history.append(entered)
        if history.count > 1000 { history.removeFirst() }
    }

    /// Ctrl-C: the line is abandoned onto the undo stack, and the draft with it.
    mutating func interrupt() {
        guard let user = screen.user else {
            line = Line()
            return
        }
        let key = Self.key(user)
        let draft = drafts.removeValue(forKey: key)
        push(key, line.isEmpty ? draft : line, 0)
        line = Line()
    }

    /// Ctrl-D on an empty line: with drafts, the first one warns, and the next line
    /// starts as the screen's draft again (the store never lost it).
    mutating func quitRequest() {
        if drafts.isEmpty && media.isEmpty || quitPending {
            hasQuit = true
        } else {
            quitPending = true
            arrive()
        }
    }

    /// After a quit and a new start: drafts and the undo stack are gone; history stays.
    mutating func restart() {
        stack = [.home]
        line = Line()
        drafts = [:]
        media = [:]
        undo = []
        quitPending = false
        hasQuit = false
        history = savedHistory.reduce(into: []) { lines, line in
            if lines.last != line { lines.append(line) }
        }
    }

    /// Whether every character of `part` is in `whole`, in the same order.
    static func inOrder(_ part: String, in whole: String) -> Bool {
        var index = whole.unicodeScalars.startIndex
        for scalar in part.unicodeScalars {
            guard let found = whole.unicodeScalars[index...].firstIndex(of: scalar) else { return false }
            index = whole.unicodeScalars.index(after: found)
        }
        return true
    }

    /// The newest history entry holding `pattern` (what `^R` finds).
    func search(_ pattern: String) -> String? { history.last { $0.contains(pattern) } }
}
