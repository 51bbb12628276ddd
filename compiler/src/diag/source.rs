//! Source files and positions: the byte spans every pass attaches to what it
//! produces, and their translation to 1-based line and column numbers for humans.

/// Identifies one loaded schema file inside a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `start..end` in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the offsets point into.
    pub file: FileId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// Creates a span from byte offsets.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The UTF-8 byte-order mark, allowed (and ignored) at the start of a file.
pub const BOM: &str = "\u{FEFF}";

/// One loaded file: its display name and text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in diagnostics (as given by the user or derived from imports).
    pub name: String,
    /// The full text.
    pub text: String,
    /// Byte offset of the start of every line, so position lookups are a binary search.
    line_starts: Vec<usize>,
    /// Characters before every [`CHAR_BLOCK`]-th byte (empty for ASCII text, where
    /// bytes and characters coincide), so a column is found without counting the
    /// whole line: lines can be megabytes long, with an error at every character.
    char_marks: Vec<usize>,
}

/// Bytes between two entries of [`SourceFile::char_marks`].
const CHAR_BLOCK: usize = 4096;

/// Whether `b` starts a UTF-8 character (is not a continuation byte).
fn starts_char(b: &u8) -> bool {
    (b & 0xC0) != 0x80
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        // A byte-order mark is not part of the first line (the lexer skips it).
        let mut line_starts = vec![if text.starts_with(BOM) { BOM.len() } else { 0 }];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let char_marks = if text.is_ascii() {
            Vec::new()
        } else {
            let mut marks = vec![0];
            for block in text.as_bytes().chunks(CHAR_BLOCK) {
                let before = marks.last().copied().unwrap_or(0);
                marks.push(before + block.iter().filter(|b| starts_char(b)).count());
            }
            marks
        };
        SourceFile {
            name,
            text,
            line_starts,
            char_marks,
        }
    }

    /// Number of characters in `text[..offset]` (`offset` need not be a character
    /// boundary: a partial character counts as one).
    fn chars_before(&self, offset: usize) -> usize {
        if self.char_marks.is_empty() {
            return offset;
        }
        let block = offset / CHAR_BLOCK;
        let from = block * CHAR_BLOCK;
        let bytes = &self.text.as_bytes()[from..offset];
        self.char_marks[block] + bytes.iter().filter(|b| starts_char(b)).count()
    }

    /// 0-based line index containing byte `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            // Before the first line's start: inside a byte-order mark.
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The text of the 0-based line `index`, without its line terminator.
    pub fn line_text(&self, index: usize) -> &str {
        let start = self.line_starts[index];
        let end = self
            .line_starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Byte offset where the 0-based line `index` starts.
    pub fn line_start(&self, index: usize) -> usize {
        self.line_starts[index]
    }

    /// 1-based line and 1-based column (counted in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line].min(offset);
        let col = self.chars_before(offset) - self.chars_before(start) + 1;
        (line as u32 + 1, col as u32)
    }
}

/// Every file loaded for one compilation, indexed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Creates an empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }

    /// Moves every file of `other` after this map's files and returns how much their
    /// ids grew: a span of `other` for file `f` is for file `f + shift` here.
    pub fn append(&mut self, other: SourceMap) -> u32 {
        let shift = self.files.len() as u32;
        self.files.extend(other.files);
        shift
    }

    /// The file with the given id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// 1-based line of the start of a span.
    pub fn line_of(&self, span: Span) -> u32 {
        // `line_col`'s line, without counting the column.
        let file = self.get(span.file);
        file.line_index((span.start as usize).min(file.text.len())) as u32 + 1
    }

    /// The source text covered by a span.
    pub fn snippet(&self, span: Span) -> &str {
        &self.get(span.file).text[span.start as usize..span.end as usize]
    }
}
