import Foundation

/// Every unsent draft of the process and the undo stack, and the moves between them, after
/// the original input view. Each move returns the ``DraftEvent``s it made.
///
/// Like the original input view, the drafts are two maps keyed by ``DraftKey``: one for
/// text (with the cursor) and one for attached media. An empty text or an empty media list
/// is never stored: saving it removes the entry. Nothing here is ever written to disk; when
/// the process ends, every draft is gone.
///
/// The moves decide nothing about the edit line: ``Session``'s ledger
/// (`Session+Ledger.swift`) does, and it is the only caller of the moves that take text
/// out of a draft. Here:
///
/// - saving a target's text keeps it; saving empty text removes the entry;
/// - entering a target looks its draft up;
/// - a send takes the draft out first, as the original does;
/// - text set aside goes on the undo stack, with where it came from (a target's draft, or
///   a line typed where there is no target);
/// - `/undo` brings back the last entry and never overwrites silently: a draft in its
///   place goes on the stack;
/// - quitting forgets every draft and the stack.
public struct Drafts: Sendable {
    /// Text waiting on the undo stack: where it came from, and what it held.
    public struct Lost: Equatable, Sendable {
        /// Where `/undo` puts it back.
        public enum Origin: Equatable, Sendable {
            /// A target's draft.
            case draft(DraftKey)
            /// An edit line where no draft can be kept (home, a profile, the command
            /// prompt): `/undo` puts it back in the edit line.
            case line
        }

        public var origin: Origin
        public var draft: DraftContents
        /// The baseline its text was judged against, when a `/` was typed into it there (a
        /// command attempt, or `//`): `/undo` brings the draft back with it, so the attempt
        /// is an attempt again and is never sent (issue 28, as D16's leave keys).
        public var baseline: TextDraft? = nil

        /// The draft key, when it came from one.
        public var key: DraftKey? { origin.key }
    }

    /// The unsent text of each input target that has some.
    public private(set) var texts: [DraftKey: TextDraft] = [:]
    /// The attached files of each input target that has some.
    public private(set) var media: [DraftKey: [Attachment]] = [:]
    /// When each target's draft last changed.
    public private(set) var updated: [DraftKey: Date] = [:]
    /// For a draft kept with a command attempt typed into an older one (a leave with the
    /// attempt in the line), that older text: the baseline the draft's line is still
    /// judged against when it comes back (SPEC §1a, "the line's baseline"), so the attempt
    /// is never sent. No other draft has one: its baseline is the draft itself.
    private var baselines: [DraftKey: TextDraft] = [:]
    /// The undo stack, most recent last.
    public private(set) var undoStack: [Lost] = []
    /// The clock that dates every change.
    private let now: @Sendable () -> Date

    /// How many entries the undo stack keeps; the oldest goes first.
    public static let undoDepth = 20

    /// No drafts, with a clock that dates every change.
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        now = clock
    }

    /// The number of input targets with a draft of either kind.
    public var count: Int { Set(texts.keys).union(media.keys).count }

    /// Whether no input target has a draft (the undo stack aside).
    public var isEmpty: Bool { texts.isEmpty && media.isEmpty }

    /// The keys of every draft, in key order.
    public var keys: [DraftKey] { Set(texts.keys).union(media.keys).sorted() }

    /// The text draft of a target, if it has one.
    public func text(for key: DraftKey) -> TextDraft? { texts[key] }

    /// The media draft of a target; empty when it has none.
    public func attachments(for key: DraftKey) -> [Attachment] { media[key] ?? [] }

    /// The baseline a target's draft text is judged against, when it is not the draft
    /// itself: a draft kept with a command attempt typed into an older one (a leave with
    /// the attempt in the line) has that older text, so the attempt is never sent when it
    /// comes back (SPEC §1a, "the line's baseline").
    public func baseline(for key: DraftKey) -> TextDraft? { baselines[key] }

    /// Whether a target has a draft of either kind.
    public func hasDraft(for key: DraftKey) -> Bool { texts[key] != nil || media[key] != nil }

    // MARK: The moves

    /// Keeps `text` as the target's draft text (empty text removes it), because of `cause`,
    /// judged against `baseline` when it comes back (``baseline(for:)``; `nil`: the draft
    /// itself). The text that was there is returned: the caller accounts for it.
    public mutating func keep(
        _ text: TextDraft, for target: InputTarget, because cause: DraftEvent.Cause, baseline: TextDraft? = nil
    ) -> (replaced: TextDraft?, events: [DraftEvent]) {
        let key = target.draftKey
        let before = texts[key]
        switch saveText(text, for: key, baseline: baseline) {
        case .saved:
            return (before, [DraftEvent(.saved, key, cause, contents(of: key))])
        case .removed:
            return (before, [DraftEvent(.removed, key, cause, DraftContents(text: before))])
        case .none:
            return (nil, [DraftEvent(.unchanged, key, cause, contents(of: key))])
        }
    }

    /// Entering `target`: its draft, if any, is in the edit line again; without one, the
    /// event says so (the original logs every lookup).
    public func enter(_ target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        return [DraftEvent(hasDraft(for: key) ? .restored : .unchanged, key, .entering(target), contents(of: key))]
    }

    /// Leaving `target` for another screen without its line (a typed command went there):
    /// the draft stays as it is, and the event says the original's save was made.
    public func leave(_ target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        return [DraftEvent(.unchanged, key, .leftByCommand, contents(of: key))]
    }

    /// Adds a file to the target's media list.
    public mutating func attach(_ attachment: Attachment, to target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        saveAttachments(attachments(for: key) + [attachment], for: key)
        return [DraftEvent(.saved, key, .attached(attachment.name), contents(of: key))]
    }

    /// Removes attachment `number` (from 1), or all of them when `nil`.
    public mutating func detach(_ number: Int?, from target: InputTarget) throws(DraftlineError) -> [DraftEvent] {
        let key = target.draftKey
        var attachments = self.attachments(for: key)
        if let number {
            guard attachments.indices.contains(number - 1) else {
                throw .noSuchAttachment(number, count: attachments.count)
            }
            attachments.remove(at: number - 1)
        } else {
            guard !attachments.isEmpty else { throw .noSuchAttachment(nil, count: 0) }
            attachments.removeAll()
        }
        saveAttachments(attachments, for: key)
        // The draft stays while it has text or media left.
        return [DraftEvent(hasDraft(for: key) ? .saved : .removed, key, .detached, contents(of: key))]
    }

    /// Takes the target's draft out (text and media), because of `cause`: a send takes it
    /// first, as the original does. The caller accounts for what it held.
    public mutating func take(
        _ target: InputTarget, because cause: DraftEvent.Cause
    ) -> (taken: DraftContents, events: [DraftEvent]) {
        let key = target.draftKey
        let removed = remove(key)
        let kind: DraftEvent.Kind = removed.isEmpty ? .unchanged : cause == .blankLine ? .cleared : .removed
        return (removed, [DraftEvent(kind, key, cause, removed)])
    }

    /// Puts back what a failed send did not store, as the target's draft.
    public mutating func putBack(_ unsent: DraftContents, for target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        restore(unsent, for: key)
        return [DraftEvent(.restored, key, .sendFailed, contents(of: key))]
    }

    /// Puts text on the undo stack, because of `cause`.
    public mutating func setAside(
        _ draft: DraftContents, from origin: Lost.Origin, because cause: DraftEvent.Cause,
        baseline: TextDraft? = nil
    ) -> [DraftEvent] {
        guard !draft.isEmpty else { return [] }
        return [DraftEvent(.discarded, origin.key, cause, draft)]
            + push(Lost(origin: origin, draft: draft, baseline: baseline))
    }

    /// Ctrl-C: the draft's attachments leave it with the abandoned line, so nothing of what
    /// was being written is sent with the next message. They join the top entry when
    /// `joinTop` (the line just set aside there, from this draft) or make an entry of their
    /// own; `/undo` brings them back with it.
    public mutating func setAsideAttachments(
        of key: DraftKey, joinTop: Bool, because cause: DraftEvent.Cause
    ) -> [DraftEvent] {
        let attachments = self.attachments(for: key)
        guard !attachments.isEmpty else { return [] }
        saveAttachments([], for: key)
        let moved = DraftContents(attachments: attachments)
        guard joinTop, let top = undoStack.indices.last, undoStack[top].origin == .draft(key),
            undoStack[top].draft.attachments.isEmpty
        else { return setAside(moved, from: .draft(key), because: cause) }
        undoStack[top].draft.attachments = attachments
        return [DraftEvent(.discarded, key, cause, moved)]
    }

    /// Puts an entry on the undo stack; one over ``undoDepth`` forgets the oldest, and the
    /// event says which (never silently: its notice had promised `/undo`).
    private mutating func push(_ entry: Lost) -> [DraftEvent] {
        undoStack.append(entry)
        guard undoStack.count > Self.undoDepth else { return [] }
        let oldest = undoStack.removeFirst()
        return [DraftEvent(.discarded, oldest.origin.key, .undoStackFull, oldest.draft)]
    }

    /// `/discard`: drops the target's draft onto the undo stack.
    public mutating func discard(_ target: InputTarget) throws(DraftlineError) -> [DraftEvent] {
        let key = target.draftKey
        guard hasDraft(for: key) else { throw .noDraftHere }
        return setAside(remove(key), from: .draft(key), because: .discardCommand)
    }

    /// `/undo`: the last entry comes back. A draft it goes back to that holds newer text
    /// goes on the stack in its place, and `replaced` says so. An entry from a line comes
    /// back as `line`, for the edit line.
    public mutating func undo() throws(DraftlineError) -> (
        restored: Lost, replaced: Bool, line: TextDraft?, events: [DraftEvent]
    ) {
        guard let last = undoStack.popLast() else { throw .nothingToUndo }
        guard case .draft(let key) = last.origin else {
            return (last, false, last.draft.text, [DraftEvent(.restored, nil, .undo, last.draft)])
        }
        let baseline = baselines[key]
        let current = remove(key)
        // Text alone, back beside the draft's attachments alone (a leave with an emptied
        // line took the text, the attachments stayed): one draft again, nothing displaced.
        if last.draft.attachments.isEmpty, last.draft.text != nil, current.text == nil, !current.attachments.isEmpty {
            restore(
                DraftContents(text: last.draft.text, attachments: current.attachments), for: key,
                baseline: last.baseline)
            return (last, false, nil, [DraftEvent(.restored, key, .undo, contents(of: key))])
        }
        // (In the place of the entry just taken: the stack is no deeper than before.)
        if !current.isEmpty { undoStack.append(Lost(origin: last.origin, draft: current, baseline: baseline)) }
        restore(last.draft, for: key, baseline: last.baseline)
        return (last, !current.isEmpty, nil, [DraftEvent(.restored, key, .undo, contents(of: key))])
    }

    /// Quitting: every draft and the undo stack are forgotten.
    public mutating func forgetAll() -> [DraftEvent] {
        let events = keys.map { DraftEvent(.discarded, $0, .quitting, contents(of: $0)) }
        removeAll()
        undoStack.removeAll()
        return events
    }

    // MARK: The maps, under the moves

    /// What a target's draft is now.
    private func contents(of key: DraftKey) -> DraftContents {
        DraftContents(text: texts[key], attachments: attachments(for: key))
    }

    /// What a save did to the maps.
    enum Change: Equatable, Sendable {
        /// An entry was stored or replaced.
        case saved
        /// An entry was removed because the new value was empty.
        case removed
        /// Nothing changed: an empty value where there was no entry.
        case none
    }

    /// Saves the text left in the edit line; empty text removes the text entry. The draft's
    /// baseline is `baseline` (``baseline(for:)``): `nil`, the draft itself.
    @discardableResult
    mutating func saveText(_ draft: TextDraft, for key: DraftKey, baseline: TextDraft? = nil) -> Change {
        defer { touch(key) }
        baselines[key] = draft.text.isEmpty ? nil : baseline
        if draft.text.isEmpty {
            return texts.removeValue(forKey: key) == nil ? .none : .removed
        }
        texts[key] = draft
        return .saved
    }

    /// Saves a media list; an empty list removes the media entry.
    @discardableResult
    mutating func saveAttachments(_ attachments: [Attachment], for key: DraftKey) -> Change {
        defer { touch(key) }
        if attachments.isEmpty {
            return media.removeValue(forKey: key) == nil ? .none : .removed
        }
        media[key] = attachments
        return .saved
    }

    /// Removes both entries of a target and returns what they held, so that a failed send
    /// can put them back with ``restore(_:for:baseline:)``.
    @discardableResult
    mutating func remove(_ key: DraftKey) -> DraftContents {
        defer { touch(key) }
        baselines.removeValue(forKey: key)
        return DraftContents(text: texts.removeValue(forKey: key), attachments: media.removeValue(forKey: key) ?? [])
    }

    /// Puts back what ``remove(_:)`` took, its text judged against `baseline`.
    mutating func restore(_ removed: DraftContents, for key: DraftKey, baseline: TextDraft? = nil) {
        if let text = removed.text { saveText(text, for: key, baseline: baseline) }
        saveAttachments(removed.attachments, for: key)
    }

    /// Forgets every draft (not the undo stack). Returns the keys that had one.
    @discardableResult
    mutating func removeAll() -> [DraftKey] {
        let gone = keys
        texts.removeAll()
        media.removeAll()
        updated.removeAll()
        baselines.removeAll()
        return gone
    }

    private mutating func touch(_ key: DraftKey) {
        if texts[key] == nil && media[key] == nil {
            updated.removeValue(forKey: key)
        } else {
            updated[key] = now()
        }
    }
}

extension Drafts.Lost.Origin {
    /// The draft key, when it is a draft's.
    public var key: DraftKey? {
        if case .draft(let key) = self { return key }
        return nil
    }
}
