/// Rows of cells printed as columns two spaces apart, each as wide as its widest cell:
/// numbers right-aligned, text left-aligned, nothing trailing after the last cell.
struct TextTable {
    enum Alignment {
        case left
        case right
    }

    let alignments: [Alignment]
    private(set) var rows = [[String]]()

    init(_ alignments: [Alignment]) {
        self.alignments = alignments
    }

    /// One row; `cells` holds one per column.
    mutating func add(_ cells: [String]) {
        precondition(cells.count == alignments.count, "a row holds one cell per column")
        rows.append(cells)
    }

    mutating func add(_ cells: String...) { add(cells) }

    /// The rows as lines, each after `indent`.
    func lines(indent: String = "") -> [String] {
        let widths = alignments.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            let cells = row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return alignments[column] == .right ? padding + row[column] : row[column] + padding
            }
            var line = indent + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
