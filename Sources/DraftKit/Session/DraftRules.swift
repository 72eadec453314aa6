import Foundation

/// The draft store and the undo stack, and the moves between them, after the original
/// input view. Each move returns the ``DraftEvent``s it made.
///
/// The rules decide nothing about the edit line: ``Session``'s ledger
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
public struct DraftRules: Sendable {
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
        public var draft: DraftStore.Removed
        /// The baseline its text was judged against, when a `/` was typed into it there (a
        /// command attempt, or `//`): `/undo` brings the draft back with it, so the attempt
        /// is an attempt again and is never sent (issue 28, as D16's leave keys).
        public var baseline: TextDraft? = nil

        /// The draft key, when it came from one.
        public var key: DraftKey? { origin.key }
    }

    /// Every unsent draft.
    public private(set) var drafts = DraftStore()
    /// The undo stack, most recent last.
    public private(set) var undoStack: [Lost] = []

    /// How many entries the undo stack keeps; the oldest goes first.
    public static let undoDepth = 20

    /// Makes the rules with a clock that dates every change.
    public init(clock: @escaping @Sendable () -> Date) {
        drafts.now = clock
    }

    /// What a target's draft is now.
    public func snapshot(_ key: DraftKey) -> DraftStore.Removed {
        DraftStore.Removed(text: drafts.text(for: key), attachments: drafts.attachments(for: key))
    }

    /// Keeps `text` as the target's draft text (empty text removes it), because of `cause`,
    /// judged against `baseline` when it comes back (``DraftStore/baselines``; `nil`: the
    /// draft itself). The text that was there is returned: the caller accounts for it.
    public mutating func keep(
        _ text: TextDraft, for target: InputTarget, because cause: DraftEvent.Cause, baseline: TextDraft? = nil
    ) -> (replaced: TextDraft?, events: [DraftEvent]) {
        let key = target.draftKey
        let before = drafts.text(for: key)
        switch drafts.saveText(text, for: key, baseline: baseline) {
        case .saved:
            return (before, [DraftEvent(.saved, key, cause, snapshot(key))])
        case .removed:
            return (before, [DraftEvent(.removed, key, cause, DraftStore.Removed(text: before, attachments: []))])
        case .none:
            return (nil, [DraftEvent(.unchanged, key, cause, snapshot(key))])
        }
    }

    /// Entering `target`: its draft, if any, is in the edit line again; without one, the
    /// event says so (the original logs every lookup).
    public func enter(_ target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        guard drafts.hasDraft(for: key) else { return [DraftEvent(.unchanged, key, .entering(target), snapshot(key))] }
        return [DraftEvent(.restored, key, .entering(target), snapshot(key))]
    }

    /// Leaving `target` for another screen without its line (a typed command went there):
    /// the draft stays as it is, and the event says the original's save was made.
    public func leave(_ target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        return [DraftEvent(.unchanged, key, .leftByCommand, snapshot(key))]
    }

    /// Adds a file to the target's media list.
    public mutating func attach(_ attachment: Attachment, to target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        drafts.saveAttachments(drafts.attachments(for: key) + [attachment], for: key)
        return [DraftEvent(.saved, key, .attached(attachment.name), snapshot(key))]
    }

    /// Removes attachment `number` (from 1), or all of them when `nil`.
    public mutating func detach(_ number: Int?, from target: InputTarget) throws(DraftlineError) -> [DraftEvent] {
        let key = target.draftKey
        var attachments = drafts.attachments(for: key)
        if let number {
            guard attachments.indices.contains(number - 1) else {
                throw .noSuchAttachment(number, count: attachments.count)
            }
            attachments.remove(at: number - 1)
        } else {
            guard !attachments.isEmpty else { throw .noSuchAttachment(nil, count: 0) }
            attachments.removeAll()
        }
        drafts.saveAttachments(attachments, for: key)
        // The draft stays while it has text or media left.
        return [DraftEvent(drafts.hasDraft(for: key) ? .saved : .removed, key, .detached, snapshot(key))]
    }

    /// Takes the target's draft out (text and media), because of `cause`: a send takes it
    /// first, as the original does. The caller accounts for what it held.
    public mutating func take(
        _ target: InputTarget, because cause: DraftEvent.Cause
    ) -> (
        taken: DraftStore.Removed, events: [DraftEvent]
    ) {
        let key = target.draftKey
        let removed = drafts.remove(key)
        let kind: DraftEvent.Kind = removed.isEmpty ? .unchanged : cause == .blankLine ? .cleared : .removed
        return (removed, [DraftEvent(kind, key, cause, removed)])
    }

    /// Puts back what a failed send did not store, as the target's draft.
    public mutating func putBack(_ unsent: DraftStore.Removed, for target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        drafts.restore(unsent, for: key)
        return [DraftEvent(.restored, key, .sendFailed, snapshot(key))]
    }

    /// Puts text on the undo stack, because of `cause`.
    public mutating func setAside(
        _ draft: DraftStore.Removed, from origin: Lost.Origin, because cause: DraftEvent.Cause,
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
        let attachments = drafts.attachments(for: key)
        guard !attachments.isEmpty else { return [] }
        drafts.saveAttachments([], for: key)
        let moved = DraftStore.Removed(attachments: attachments)
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
        guard drafts.hasDraft(for: key) else { throw .noDraftHere }
        return setAside(drafts.remove(key), from: .draft(key), because: .discardCommand)
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
        let baseline = drafts.baseline(for: key)
        let current = drafts.remove(key)
        // Text alone, back beside the draft's attachments alone (a leave with an emptied
        // line took the text, the attachments stayed): one draft again, nothing displaced.
        if last.draft.attachments.isEmpty, last.draft.text != nil, current.text == nil, !current.attachments.isEmpty {
            drafts.restore(
                DraftStore.Removed(text: last.draft.text, attachments: current.attachments), for: key,
                baseline: last.baseline)
            return (last, false, nil, [DraftEvent(.restored, key, .undo, snapshot(key))])
        }
        // (In the place of the entry just taken: the stack is no deeper than before.)
        if !current.isEmpty { undoStack.append(Lost(origin: last.origin, draft: current, baseline: baseline)) }
        drafts.restore(last.draft, for: key, baseline: last.baseline)
        return (last, !current.isEmpty, nil, [DraftEvent(.restored, key, .undo, snapshot(key))])
    }

    /// Quitting: every draft and the undo stack are forgotten.
    public mutating func forgetAll() -> [DraftEvent] {
        let events = drafts.keys.map { DraftEvent(.discarded, $0, .quitting, snapshot($0)) }
        drafts.removeAll()
        undoStack.removeAll()
        return events
    }
}

extension DraftRules.Lost.Origin {
    /// The draft key, when it is a draft's.
    public var key: DraftKey? {
        if case .draft(let key) = self { return key }
        return nil
    }
}
