/// A 1-based line and column in a scenario file.
///
/// Columns count Unicode scalars (not bytes, not grapheme clusters), so `näme: x` puts `x` at column 7.
/// A tab counts as one column.
package struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    package var line: Int
    /// The 1-based column, counted in Unicode scalars.
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`.
    package var description: String { "\(line):\(column)" }
}
