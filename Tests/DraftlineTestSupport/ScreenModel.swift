/// A small model of a terminal screen, fed with what a program wrote: enough of VT100
/// and xterm to see what libedit draws (text, CR, LF, BS, cursor moves, erases).
///
/// libedit redraws only the cells that change, so the text a test expects may never
/// appear whole in the byte stream; the screen shows it. Characters are one cell wide,
/// so tests that read the screen use ASCII on the rows they check.
public struct ScreenModel {
    public let rows: Int
    public let columns: Int
    public private(set) var cells: [[Character]]
    /// The cursor: row and column, from 0.
    public private(set) var cursor = (row: 0, column: 0)

    public init(rows: Int = 24, columns: Int = 80) {
        self.rows = rows
        self.columns = columns
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The screen after `bytes` were written to an empty one.
    public init(rows: Int = 24, columns: Int = 80, bytes: [UInt8]) {
        self.init(rows: rows, columns: columns)
        feed(bytes)
    }

    /// Each row as text, trailing blanks removed.
    public var lines: [String] {
        cells.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// The rows from the first to the last that hold anything.
    public var text: [String] {
        let shown = lines
        guard let last = shown.lastIndex(where: { !$0.isEmpty }) else { return [] }
        return Array(shown[...last])
    }

    public mutating func feed(_ bytes: [UInt8]) {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\r": cursor.column = 0
            case "\n": lineFeed()
            case "\u{8}": cursor.column = max(0, cursor.column - 1)
            case "\u{7}": break
            case "\u{1B}":
                guard index < scalars.count else { return }
                let kind = scalars[index]
                index += 1
                if kind == "[" {
                    var parameters = ""
                    while index < scalars.count, !(0x40...0x7E).contains(scalars[index].value) {
                        parameters.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    guard index < scalars.count else { return }
                    control(scalars[index], parameters)
                    index += 1
                } else if kind == "]" {
                    while index < scalars.count, scalars[index] != "\u{7}" { index += 1 }
                    index += 1
                }
            default:
                guard scalar.value >= 0x20 else { continue }
                if cursor.column >= columns {
                    cursor.column = 0
                    lineFeed()
                }
                cells[cursor.row][cursor.column] = Character(scalar)
                cursor.column += 1
            }
        }
    }

    private mutating func lineFeed() {
        if cursor.row == rows - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: " ", count: columns))
        } else {
            cursor.row += 1
        }
    }

    private mutating func control(_ final: Unicode.Scalar, _ parameters: String) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = (numbers.first ?? nil) ?? 0
        let count = max(1, first)
        switch final {
        case "A": cursor.row = max(0, cursor.row - count)
        case "B": cursor.row = min(rows - 1, cursor.row + count)
        case "C": cursor.column = min(columns, cursor.column + count)
        case "D": cursor.column = max(0, cursor.column - count)
        case "G": cursor.column = min(columns - 1, count - 1)
        case "H", "f":
            cursor.row = min(rows - 1, max(0, first - 1))
            cursor.column = min(columns - 1, max(0, (numbers.count > 1 ? (numbers[1] ?? 1) : 1) - 1))
        case "J":
            if first == 0 {
                erase(row: cursor.row, from: cursor.column)
                for row in (cursor.row + 1)..<rows { erase(row: row, from: 0) }
            } else if first == 2 {
                for row in 0..<rows { erase(row: row, from: 0) }
            }
        case "K":
            if first == 0 { erase(row: cursor.row, from: cursor.column) }
            if first == 2 { erase(row: cursor.row, from: 0) }
        case "P":
            let row = cursor.row
            for _ in 0..<count where cursor.column < columns {
                cells[row].remove(at: cursor.column)
                cells[row].append(" ")
            }
        case "@":
            let row = cursor.row
            for _ in 0..<count where cursor.column < columns {
                cells[row].insert(" ", at: cursor.column)
                cells[row].removeLast()
            }
        default: break
        }
    }

    private mutating func erase(row: Int, from column: Int) {
        guard column < columns else { return }
        for index in column..<columns { cells[row][index] = " " }
    }
}
