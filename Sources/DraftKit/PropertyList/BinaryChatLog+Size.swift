import Foundation

/// How big a binary property list is once read, a shared object counted each time it is
/// referred to: 30,000 references to a message of 1 MB are a 1 MB file, and 30 GB read.
extension BinaryChatLog {
    /// The size of `data` read as a tree, more than `limit` as `limit + 1`. `nil` when it is
    /// not a binary property list, an object holds itself, or a collection claims more
    /// references than the objects hold (Foundation's scanner traps on some).
    static func expandedSize(_ data: Data, limit: Int) -> Int? {
        data.withUnsafeBytes { raw in BinaryChatLog(table: raw)?.expandedSize(limit: limit) }
    }

    /// ``expandedSize(_:limit:)`` of the table read: each object measured once, depth-first
    /// with a stack of its own, so any nesting is measured without recursion.
    func expandedSize(limit: Int) -> Int? {
        let cap = limit + 1
        var size = [Int](repeating: -1, count: offsets.count)
        var visiting = [Bool](repeating: false, count: offsets.count)
        var stack: [(object: Int, children: [Int], next: Int)] = []
        func enter(_ object: Int) -> Bool {
            guard let (kind, count, at) = header(object) else { return false }
            var children: [Int] = []
            if kind == 0xA || kind == 0xC || kind == 0xD {
                guard let held = kind == 0xD ? (count <= Int.max / 2 ? 2 * count : nil) : count,
                    let all = references(held, at: at)
                else { return false }
                children = all
            }
            visiting[object] = true
            stack.append((object, children, 0))
            return true
        }
        func own(_ object: Int) -> Int {
            guard let (kind, count, _) = header(object) else { return 0 }
            let width: Int
            switch kind {
            case 0x4, 0x5: width = 1
            case 0x6: width = 2
            case 0xA, 0xC: width = 8
            case 0xD: width = 16
            default: return 8
            }
            // A count from the file: its product may not fit (a UTF-16 string of 2^62 units).
            let (bytes, overflow) = count.multipliedReportingOverflow(by: width)
            return overflow ? cap : min(cap, bytes)
        }
        guard topObject < offsets.count, enter(topObject) else { return nil }
        while let top = stack.last {
            if top.next < top.children.count {
                let child = top.children[top.next]
                stack[stack.count - 1].next += 1
                guard child >= 0, child < offsets.count else { continue }
                if size[child] >= 0 { continue }
                guard !visiting[child] else { return nil }
                guard let (kind, _, _) = header(child) else { return nil }
                if kind == 0xA || kind == 0xC || kind == 0xD {
                    guard enter(child) else { return nil }
                } else {
                    size[child] = own(child)
                }
                continue
            }
            stack.removeLast()
            var total = own(top.object)
            for child in top.children where child >= 0 && child < offsets.count && size[child] > 0 {
                total = min(cap, total + size[child])
            }
            size[top.object] = min(cap, total)
            visiting[top.object] = false
        }
        return size[topObject]
    }
}

/// Keys a binary property list repeats: which of them Foundation's decoder keeps changes
/// from run to run (its hashing is seeded per process).
extension BinaryChatLog {
    /// The first key the top dictionary, or a kinds dictionary in it, holds twice (by Swift's `==`).
    static func repeatedKey(_ data: Data) -> String? {
        data.withUnsafeBytes { raw -> String? in
            guard let table = BinaryChatLog(table: raw), let pairs = table.dictionary(table.topObject) else {
                return nil
            }
            func repeated(_ pairs: [(Int, Int)]) -> String? {
                var seen: Set<String> = []
                for (key, _) in pairs {
                    guard let name = table.string(key) else { continue }
                    if !seen.insert(name).inserted { return name }
                }
                return nil
            }
            if let key = repeated(pairs) { return key }
            for (key, value) in pairs {
                guard let name = table.string(key), ChatLogFile.isKindsKey(name), let kinds = table.dictionary(value)
                else { continue }
                if let key = repeated(kinds) { return key }
            }
            return nil
        }
    }
}
