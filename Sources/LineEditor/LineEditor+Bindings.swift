import CEditLine
import Glibc

/// Key bindings: made in every key map and mode, listed as libedit lists them, and made
/// again after a configuration file resets the maps.
extension LineEditor {
    /// Binds a key sequence (libedit notation, such as `^Xp`) to a function by name, in
    /// the main key map and the alternate one (vi's command mode), so the key works in
    /// every mode.
    ///
    /// Wraps `el_set(EL_BIND)` and `el_set(EL_BIND, "-a")`. The binding is remembered and
    /// made again when a configuration file leaves the function unbound (a `bind -v` line
    /// resets the key maps).
    public func bind(_ keys: String, to function: String) throws(LineEditorError) {
        bindings.removeAll { $0.keys == keys }
        bindings.append((keys, function))
        let failed = bindAll(keys, function)
        guard failed.isEmpty else {
            throw LineEditorError(
                function: "el_set(EL_BIND)", message: "cannot bind \(failed.joined(separator: ", "))")
        }
    }

    /// Binds in the main map and in the alternate map; in vi mode also after Escape in
    /// the alternate map: in vi's command mode an Escape pressed out of habit (ESC is a
    /// lead-in there) must not swallow the key. In emacs mode a `^X` sequence is bound
    /// after Escape too: ESC is a lead-in there as well (of the arrow keys), and Escape,
    /// `^X b` took ESC `^X` as an unknown sequence and typed the `b` into the line; so is
    /// the interrupt key (Escape, Ctrl-C had been swallowed as Meta-Ctrl-C).
    /// Returns what failed.
    private func bindAll(_ keys: String, _ function: String, main: Bool = true, alternate: Bool = true) -> [String] {
        var failed: [String] = []
        if main && dl_el_bind(editLine, keys, function) != 0 { failed.append("\(keys) (\(function))") }
        if main && dl_el_is_vi(editLine) != 1 && (keys.hasPrefix("^X") || function == Self.interruptFunction)
            && dl_el_bind(editLine, "^[" + keys, function) != 0
        {
            failed.append("^[\(keys) (\(function), after Escape)")
        }
        if alternate
            && (dl_el_bind_alternate(editLine, keys, function) != 0
                || (dl_el_is_vi(editLine) == 1 && dl_el_bind_alternate(editLine, "^[" + keys, function) != 0))
        {
            failed.append("\(keys) (\(function), vi command mode)")
        }
        return failed
    }

    /// The key sequences bound to each function in a key map, as libedit lists them
    /// (`^Xp`, `^T`): the map's own single keys, and the sequences and arrow keys both
    /// maps share.
    ///
    /// Wraps `el_set(EL_BIND)` with no arguments, its listing captured with
    /// `el_set(EL_SETFP)` into `open_memstream`. The listing holds both maps, with or
    /// without `-a`, under their headings; the other map's section is left out.
    public func boundKeys(alternate: Bool = false) -> [String: [String]] {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return [:] }
        let listed = dl_el_list_bindings(editLine, 0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard listed == 0, let buffer else { return [:] }
        return Self.parseBindings(String(cString: buffer), alternate: alternate)
    }

    /// Function name to key sequences, from libedit's listing: one binding a line,
    /// `"keys"   ->  function` (function names hold no quote), under the headings
    /// `Standard key bindings` (the main map), `Alternative key bindings` (vi's command
    /// mode), `Multi-character bindings` and `Arrow key bindings` (both).
    static func parseBindings(_ listing: String, alternate: Bool = false) -> [String: [String]] {
        var result: [String: [String]] = [:]
        let own = alternate ? "Alternative key bindings" : "Standard key bindings"
        let shared = ["Multi-character bindings", "Arrow key bindings"]
        var included = true
        for line in listing.split(separator: "\n") {
            if !line.contains("->") {
                included = line == own || shared.contains(String(line))
                continue
            }
            guard included, line.first == "\"", let close = line.lastIndex(of: "\""), close > line.startIndex else {
                continue
            }
            let keys = line[line.index(after: line.startIndex)..<close]
            let rest = line[line.index(after: close)...].drop { $0 == " " }
            guard rest.hasPrefix("->") else { continue }
            let function = rest.dropFirst(2).drop { $0 == " " }
            guard !function.isEmpty else { continue }
            result[String(function), default: []] += expandingRange(String(keys))
        }
        return result
    }

    /// The keys of a listing line: one sequence, or a range of control keys libedit lists
    /// as `"^K" to "^L"` (the text between the outer quotes is `^K" to "^L`).
    private static func expandingRange(_ keys: String) -> [String] {
        let parts = keys.split(separator: "\" to \"", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts[0].unicodeScalars.last, let last = parts[1].unicodeScalars.last,
            parts[0].count == 2, parts[1].count == 2, parts[0].hasPrefix("^"), parts[1].hasPrefix("^"),
            first.value <= last.value
        else { return [keys] }
        return (first.value...last.value).compactMap(Unicode.Scalar.init).map { "^" + String($0) }
    }

    /// What a control key does in vi's insert mode instead of inserting itself: libedit's
    /// own vi insert map when not built for ksh (Debian's is: there `^L`, `^A` and others
    /// insert the raw control character, and the message is sent with it). A key missing
    /// here rings the bell. Only `^V` inserts a control character: the user quoted it.
    static let viInsertControls: [String: String] = [
        "^A": "ed-move-to-beg", "^B": "ed-prev-char", "^E": "ed-move-to-end", "^F": "ed-next-char",
        "^K": "ed-kill-line", "^L": "ed-clear-screen", "^N": "ed-next-history", "^O": "ed-ignore",
        "^P": "ed-prev-history", "^R": "ed-redisplay", "^T": "ed-transpose-chars", "^Y": "ed-ignore",
    ]

    /// In vi mode, every control key that vi's insert map (the main one) binds to
    /// `ed-insert` gets a function of its own (``viInsertControls``, else `ed-unassigned`);
    /// `^D` in command mode (the alternate map, where it is undefined) does what it does in
    /// insert mode, and `^L` redraws there too. Returns what failed, as `keys (function)`.
    private func bindViControls(main: [String: [String]], alternate: [String: [String]]) -> [String] {
        guard dl_el_is_vi(editLine) == 1 else { return [] }
        var failed: [String] = []
        let inserting = (main["ed-insert"] ?? []).filter { $0.count == 2 && $0.hasPrefix("^") && $0 != "^?" }
        for keys in inserting {
            let function = Self.viInsertControls[keys] ?? "ed-unassigned"
            if dl_el_bind(editLine, keys, function) != 0 { failed.append("\(keys) (\(function))") }
        }
        let commandMode = alternate.filter { $0.key != "is undefined" }.values.reduce(into: Set<String>()) {
            $0.formUnion($1)
        }
        for (keys, function) in [("^D", "vi-list-or-eof"), ("^L", "ed-clear-screen")] where !commandMode.contains(keys)
        {
            if dl_el_bind_alternate(editLine, keys, function) != 0 {
                failed.append("\(keys) (\(function), vi command mode)")
            }
        }
        return failed
    }

    /// Sets the editing mode, `"emacs"` or `"vi"`, then binds draftline's keys again.
    ///
    /// Wraps `el_set(EL_EDITOR)`.
    public func setEditor(_ mode: String) throws(LineEditorError) {
        let result = dl_el_set_editor(editLine, mode)
        guard result == 0 else {
            throw LineEditorError(function: "el_set(EL_EDITOR)", code: result, message: "unknown editor '\(mode)'")
        }
        let failed = rebind()
        guard failed.isEmpty else {
            throw LineEditorError(
                function: "el_set(EL_BIND)", message: "cannot bind again: \(failed.joined(separator: ", "))")
        }
    }

    /// Reads libedit's configuration file, then binds draftline's keys again and puts back
    /// the terminal settings draftline needs (Ctrl-C and Ctrl-Z as keys, the editor's mode
    /// between reads); returns the bindings that could not be made again, as `keys (function)`.
    ///
    /// Wraps `el_source`: libedit reads `$EDITRC`, else `~/.editrc`. A `bind -e` or `bind -v`
    /// line in the file resets the key maps, so the program's own bindings are made again
    /// afterwards; a binding the file makes for a sequence draftline does not use is kept.
    public func sourceConfiguration() -> [String] {
        _ = el_source(editLine, nil)
        var failed = rebind()
        if dl_el_set_edit_signals(editLine, 0) != 0 { failed.append("Ctrl-C and Ctrl-Z as keys (setty -d -isig)") }
        if dl_el_keep_edit_mode_between_reads(editLine) != 0 {
            failed.append("keys typed ahead kept for the editor (setty -x -icanon -echo -isig)")
        }
        return failed
    }

    /// Makes again each binding whose function a configuration left unbound in a key
    /// map (and the private sequences always); returns those that failed, as
    /// `keys (function)`. A function the user bound to keys of their own keeps them.
    func rebind() -> [String] {
        let main = boundKeys()
        let alternate = boundKeys(alternate: true)
        let failed = bindings.flatMap { binding in
            let always =
                [Self.prefillFunction, Self.pasteFunction].contains(binding.function)
                || binding.keys == Self.nextHistorySequence
            return bindAll(
                binding.keys, binding.function, main: always || main[binding.function] == nil,
                alternate: always || alternate[binding.function] == nil)
        }
        // The vi control keys and the terminal's keys are looked at once draftline's own
        // keys are bound again.
        return failed + unbindRefusedFunctions(main: main, alternate: alternate)
            + bindViControls(main: boundKeys(), alternate: boundKeys(alternate: true))
            + bindTerminalKeys(main: boundKeys(), alternate: boundKeys(alternate: true))
            + bindNextHistory(main: boundKeys(), alternate: boundKeys(alternate: true))
            + bindEscapeBeforeUnboundKeys(main: boundKeys())
    }

    /// In emacs mode, Escape then a printable key that no Meta binding takes inserts that
    /// key (`ed-insert` inserts the last key of its sequence), as if Escape were not
    /// pressed: libedit rang the bell and dropped both, so a new user's Escape, `/drafts`
    /// made `drafts` text, sent with the next Enter, and Escape, space ate the space. Meta
    /// keys that are bound (`^[b`, `^[f`, the digits, `^[x` refused) keep their functions;
    /// `[` and `O` stay the arrow keys' lead-ins. Returns what failed, as `keys (function)`.
    private func bindEscapeBeforeUnboundKeys(main: [String: [String]]) -> [String] {
        guard dl_el_is_vi(editLine) != 1 else { return [] }
        // (A key listed as `ed-unassigned` was unbound on purpose: ``refusedFunctions``.)
        let bound = Set(main.values.joined())
        var failed: [String] = []
        for value in UInt8(0x20)...UInt8(0x7E) where value != UInt8(ascii: "[") && value != UInt8(ascii: "O") {
            let key = String(UnicodeScalar(value))
            guard !bound.contains("^[" + key) else { continue }
            let keys = "^[" + (key == "^" || key == "\\" ? "\\" + key : key)
            if dl_el_bind(editLine, keys, "ed-insert") != 0 { failed.append("\(keys) (ed-insert)") }
        }
        return failed
    }

    /// Binds every key of `ed-next-history` (Down, `^N`, vi's `j` and `+`) to
    /// ``nextHistoryFunction``, which runs it only while a recall shows: on the user's own
    /// line libedit's Down replaced the line with the one it saved at the last Up. Returns
    /// what failed, as `keys (function)`.
    private func bindNextHistory(main: [String: [String]], alternate: [String: [String]]) -> [String] {
        var failed: [String] = []
        // The multi-character sequences are shared by both maps: in vi mode they are bound
        // in the command map only (in the main map, ESC would stop being vi-command-mode,
        // and `O` or `[` typed in insert mode would begin a sequence and be swallowed).
        let vi = dl_el_is_vi(editLine) == 1
        let single = { (keys: String) in keys.count == 1 || (keys.count == 2 && keys.hasPrefix("^")) }
        for keys in main["ed-next-history"] ?? []
        where keys != Self.nextHistorySequence && (!vi || single(keys)) {
            if dl_el_bind(editLine, keys, Self.nextHistoryFunction) != 0 {
                failed.append("\(keys) (\(Self.nextHistoryFunction))")
            }
        }
        for keys in alternate["ed-next-history"] ?? [] where keys != Self.nextHistorySequence {
            if dl_el_bind_alternate(editLine, keys, Self.nextHistoryFunction) != 0 {
                failed.append("\(keys) (\(Self.nextHistoryFunction), vi command mode)")
            }
        }
        return failed
    }

    /// Keys that terminals send whatever `TERM` says, after ESC, and what each does:
    /// libedit binds only those its terminfo entry names, so with `TERM=xterm` inside tmux
    /// (which sends `ESC[1~` for Home) Home typed `~`, and with any `TERM` Page Up typed
    /// `~` and Ctrl-Left `;5D`. The sequences are xterm's, the VT220's (tmux, screen, the
    /// Linux console) and rxvt's; keys with nothing to do ring the bell and type nothing.
    static let terminalSequences: [(keys: String, function: String)] = {
        let nothing = "ed-unassigned"
        var keys = [
            ("[1~", "ed-move-to-beg"), ("[7~", "ed-move-to-beg"), ("[H", "ed-move-to-beg"), ("OH", "ed-move-to-beg"),
            ("[4~", "ed-move-to-end"), ("[8~", "ed-move-to-end"), ("[F", "ed-move-to-end"), ("OF", "ed-move-to-end"),
            ("[3~", "ed-delete-next-char"), ("[2~", nothing), ("[5~", nothing), ("[6~", nothing),
            ("OP", nothing), ("OQ", nothing), ("OR", nothing), ("OS", nothing),
        ]
        for number in [11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24] { keys.append(("[\(number)~", nothing)) }
        // With Shift (2), Alt (3), Ctrl (5) and both (7): the word keys move by words;
        // the others do what they do alone.
        for modifier in 2...8 {
            let word = [3, 5, 7].contains(modifier)
            keys += [
                ("[1;\(modifier)D", word ? "ed-prev-word" : "ed-prev-char"),
                ("[1;\(modifier)C", word ? "em-next-word" : "ed-next-char"),
                ("[1;\(modifier)A", nothing), ("[1;\(modifier)B", nothing),
                ("[1;\(modifier)H", "ed-move-to-beg"), ("[1;\(modifier)F", "ed-move-to-end"),
                ("[3;\(modifier)~", "ed-delete-next-char"),
            ]
        }
        return keys
    }()

    /// Binds each of ``terminalSequences`` that no key map binds yet (a terminfo entry's or a
    /// configuration's binding is kept): in emacs mode after ESC in the main map, and after
    /// ESC twice (Escape pressed before the key, as before `^X` keys: Escape, Down typed
    /// `[B`), the arrow keys' own sequences too; in vi mode in the command map, after ESC
    /// (the key pressed in command mode) and without it (pressed in insert mode, where the
    /// ESC switches to command mode), as libedit binds the arrow keys there. Returns what
    /// failed, as `keys (function)`.
    private func bindTerminalKeys(main: [String: [String]], alternate: [String: [String]]) -> [String] {
        let vi = dl_el_is_vi(editLine) == 1
        var bound = Dictionary(
            (vi ? alternate : main).filter { $0.key != "is undefined" }.flatMap { binding in
                binding.value.map { ($0, binding.key) }
            },
            uniquingKeysWith: { first, _ in first })
        var wanted = Self.terminalSequences.map { (keys: "^[" + $0.keys, function: $0.function) }
        if vi {
            wanted += Self.terminalSequences
        } else {
            // libedit's own functions only: a paste's start after Escape is no key.
            let arrows = bound.filter { key, function in
                (key.hasPrefix("^[[") || key.hasPrefix("^[O"))
                    && (function.hasPrefix("ed-") || function.hasPrefix("em-"))
            }
            wanted += (arrows.map { (keys: $0.key, function: $0.value) } + wanted).map { ("^[" + $0.keys, $0.function) }
        }
        var failed: [String] = []
        for (keys, function) in wanted where bound[keys] == nil {
            bound[keys] = function
            let result = vi ? dl_el_bind_alternate(editLine, keys, function) : dl_el_bind(editLine, keys, function)
            if result != 0 { failed.append("\(keys) (\(function))") }
        }
        return failed
    }

    /// libedit's functions no key runs, whatever a configuration says, as each would take
    /// the draft out of draftline's hands: `vi-histedit` (`v` in vi's command mode) saves
    /// the line in `/tmp/histedit.XXXXXXXXXX` and runs `$EDITOR` on it, and a draft never
    /// reaches the disk; `ed-command` (Escape `x` in emacs mode, `:` in vi's command mode)
    /// replaces the edit line with libedit's own `:` prompt, where Ctrl-C is not a key and
    /// what was typed is gone when it closes.
    static let refusedFunctions: Set<String> = ["vi-histedit", "ed-command"]

    /// Binds every key of a ``refusedFunctions`` function to `ed-unassigned` (which rings
    /// the bell) in the map that had it; returns what failed, as `keys (function)`.
    private func unbindRefusedFunctions(main: [String: [String]], alternate: [String: [String]]) -> [String] {
        var failed: [String] = []
        for function in Self.refusedFunctions {
            for keys in main[function] ?? [] where dl_el_bind(editLine, keys, "ed-unassigned") != 0 {
                failed.append("\(keys) (unbinding \(function))")
            }
            for keys in alternate[function] ?? [] where dl_el_bind_alternate(editLine, keys, "ed-unassigned") != 0 {
                failed.append("\(keys) (unbinding \(function), vi command mode)")
            }
        }
        return failed
    }
}
