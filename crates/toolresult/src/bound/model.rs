//! Bounding for a model's context (docs/bounding.md §7): what a model is
//! given of a result fits a budget in characters and bytes (tokens are
//! turned into characters by the caller), and every cut says what it dropped
//! and how to get it back.
//!
//! - Text keeps its head and its tail (`Keep::HeadTail`, the default: a test
//!   run's failure is at the end of its output) or only its head. The split is
//!   [`HEAD_SHARE_PERCENT`] % head, the rest tail, each snapped to a line
//!   boundary when one is near.
//! - JSON stays valid JSON: arrays keep their first and last items, objects
//!   their first keys, strings their head and tail.
//! - Content blocks: media (`image`, `audio`, embedded `resource` blobs) is
//!   never cut mid-data: kept whole if it fits, else replaced by a text block
//!   naming its kind, type and size. Text blocks share the rest of the room.
//!
//! Nothing here stores anything: the caller keeps the full result (the
//! store), whose sha256 the report carries.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;
use serde_json::{Map, Value};

use super::preview::human_bytes;
use crate::issue::push_pointer_token;

/// Of the room left for kept text, the share the head gets under
/// [`Keep::HeadTail`]; the tail gets the rest (it usually holds the verdict:
/// the failing test, the error, the exit status).
pub const HEAD_SHARE_PERCENT: usize = 40;

/// A room below this many characters (or bytes) is raised to it: below it
/// a marker naming `get_tool_result` and its id would not fit beside any
/// kept text.
pub const MIN_MODEL_ROOM: usize = 256;

/// Which ends of a text a cut keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Keep {
    /// The first part only.
    Head,
    /// The first and the last parts, with a marker between (the default).
    #[default]
    HeadTail,
}

/// Characters (Unicode scalar values) and UTF-8 bytes of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Size {
    /// Unicode scalar values.
    pub chars: usize,
    /// UTF-8 bytes.
    pub bytes: usize,
}

impl Size {
    /// The size of `s`.
    pub fn of(s: &str) -> Size {
        Size {
            chars: s.chars().count(),
            bytes: s.len(),
        }
    }

    fn plus(self, o: Size) -> Size {
        Size {
            chars: self.chars + o.chars,
            bytes: self.bytes + o.bytes,
        }
    }
}

/// How much may be kept: both counts must hold (the tightest wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    /// Most characters.
    pub chars: usize,
    /// Most UTF-8 bytes.
    pub bytes: usize,
}

impl Room {
    /// No limit.
    pub const UNLIMITED: Room = Room {
        chars: usize::MAX,
        bytes: usize::MAX,
    };

    /// A room from optional limits; a limit below [`MIN_MODEL_ROOM`] is
    /// raised to it.
    pub fn new(max_chars: Option<usize>, max_bytes: Option<usize>) -> Room {
        Room {
            chars: max_chars.map_or(usize::MAX, |c| c.max(MIN_MODEL_ROOM)),
            bytes: max_bytes.map_or(usize::MAX, |b| b.max(MIN_MODEL_ROOM)),
        }
    }

    /// Whether something of `size` fits.
    pub fn fits(&self, size: Size) -> bool {
        size.chars <= self.chars && size.bytes <= self.bytes
    }

    fn minus(self, size: Size) -> Room {
        Room {
            chars: self.chars.saturating_sub(size.chars),
            bytes: self.bytes.saturating_sub(size.bytes),
        }
    }

    fn share(self, percent: usize) -> Room {
        let part = |n: usize| {
            if n == usize::MAX {
                n
            } else {
                n / 100 * percent + n % 100 * percent / 100
            }
        };
        Room {
            chars: part(self.chars),
            bytes: part(self.bytes),
        }
    }

    fn is_empty(&self) -> bool {
        self.chars == 0 || self.bytes == 0
    }
}

/// What was cut, for the marker and the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CutKind {
    /// Part of a text (lines and characters).
    Text,
    /// Items of an array.
    Items,
    /// Members of an object.
    Keys,
    /// A media block replaced by a placeholder.
    Media,
}

/// One cut: where, what kind, and how much it dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelCut {
    /// JSON Pointer of the cut value: into `/output` or `/content`.
    pub path: String,
    /// What was cut.
    pub kind: CutKind,
    /// Whole or partial lines dropped (text).
    pub dropped_lines: usize,
    /// Characters dropped (text), or characters of the dropped items,
    /// members or media data.
    pub dropped_chars: usize,
    /// Items or members dropped (arrays, objects), 1 for media.
    pub dropped_items: usize,
}

/// Cuts a model budget applies: the room, which ends are kept, and the id
/// markers name so the model can ask for the rest.
#[derive(Debug, Clone)]
pub struct ModelCutter<'a> {
    room: Room,
    keep: Keep,
    reference: &'a str,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl<'a> ModelCutter<'a> {
    /// A cutter for `room`; `reference` is the id `get_tool_result` takes
    /// (the tool_call_id), named in every marker (empty: markers only say
    /// what was dropped).
    pub fn new(room: Room, keep: Keep, reference: &'a str) -> Self {
        ModelCutter {
            room,
            keep,
            reference,
        }
    }

    fn how(&self) -> String {
        if self.reference.is_empty() {
            String::new()
        } else {
            format!("; get_tool_result(\"{}\") returns it all", self.reference)
        }
    }

    /// The marker a text cut leaves: `…[12 lines (840 characters) cut; get_tool_result("id") returns it all]…`.
    fn text_marker(&self, lines: usize, chars: usize, terse: bool) -> String {
        if terse {
            format!("…[{chars} cut]…")
        } else if lines > 0 {
            format!(
                "…[{} ({}) cut{}]…",
                plural(lines, "line", "lines"),
                plural(chars, "character", "characters"),
                self.how()
            )
        } else {
            format!(
                "…[{} cut{}]…",
                plural(chars, "character", "characters"),
                self.how()
            )
        }
    }

    fn items_marker(&self, items: usize, what: (&str, &str)) -> String {
        format!("…[{} cut{}]…", plural(items, what.0, what.1), self.how())
    }

    /// A text cut to `room`, or `None` when it fits. The marker sits between
    /// head and tail (on its own line when the cut falls on line
    /// boundaries).
    pub fn cut_text(&self, text: &str, room: Room) -> Option<(String, ModelCut)> {
        let full = Size::of(text);
        if room.fits(full) {
            return None;
        }
        let total_lines = text.matches('\n').count() + 1;
        // The longest marker this cut can leave (every count at its maximum);
        // where it would take more than half the room, the terse one (no
        // `get_tool_result` hint) is used.
        let newlines = Size { chars: 2, bytes: 2 };
        let mut terse = false;
        let mut worst = Size::of(&self.text_marker(total_lines, full.chars, false)).plus(newlines);
        if !room.share(50).fits(worst) {
            terse = true;
            worst = Size::of(&self.text_marker(total_lines, full.chars, true)).plus(newlines);
        }
        let avail = room.minus(worst);
        let head_room = match self.keep {
            Keep::Head => avail,
            Keep::HeadTail => avail.share(HEAD_SHARE_PERCENT),
        };
        let mut head_end = prefix_within(text, head_room);
        if let Some(nl) = text[..head_end].rfind('\n') {
            if nl + 1 >= head_end / 2 {
                head_end = nl + 1;
            }
        }
        let mut tail_start = text.len();
        if self.keep == Keep::HeadTail {
            let used = Size::of(&text[..head_end]);
            let tail_room = avail.minus(used);
            tail_start = suffix_within(text, tail_room).max(head_end);
            if let Some(nl) = text[tail_start..].find('\n') {
                let after = tail_start + nl + 1;
                if text.len() - after >= (text.len() - tail_start) / 2 && after <= text.len() {
                    tail_start = after;
                }
            }
        }
        let dropped = &text[head_end..tail_start];
        // Line breaks dropped: whole lines when both ends are on line
        // boundaries, else the lines the cut runs through.
        let lines = dropped.matches('\n').count();
        let chars = dropped.chars().count();
        let mut marker = self.text_marker(lines, chars, terse);
        // A cut across lines puts the marker on a line of its own; a cut
        // inside one line leaves it inline.
        if lines > 0 {
            if head_end > 0 && !text[..head_end].ends_with('\n') {
                marker.insert(0, '\n');
            }
            if tail_start < text.len() {
                marker.push('\n');
            }
        }
        let mut out = String::with_capacity(head_end + marker.len() + text.len() - tail_start);
        out.push_str(&text[..head_end]);
        out.push_str(&marker);
        out.push_str(&text[tail_start..]);
        let cut = ModelCut {
            path: String::new(),
            kind: CutKind::Text,
            dropped_lines: lines,
            dropped_chars: chars,
            dropped_items: 0,
        };
        Some((out, cut))
    }

    /// A JSON value cut so that its compact serialization fits `room`; the
    /// value stays valid JSON. Cuts are appended to `cuts` with their paths
    /// under `path`.
    pub fn cut_value(
        &self,
        value: &Value,
        room: Room,
        path: &mut String,
        cuts: &mut Vec<ModelCut>,
    ) -> Value {
        let size = json_size(value);
        if room.fits(size) {
            return value.clone();
        }
        match value {
            Value::String(s) => self.cut_json_string(s, room, path, cuts),
            Value::Array(items) => self.cut_array(items, room, path, cuts),
            Value::Object(map) => self.cut_object(map, room, path, cuts),
            // A number, boolean or null is kept: nothing smaller says the same.
            other => other.clone(),
        }
    }

    fn cut_json_string(&self, s: &str, room: Room, path: &str, cuts: &mut Vec<ModelCut>) -> Value {
        // Escapes make the JSON form longer than the text: shrink until it fits.
        let mut text_room = room.minus(Size { chars: 2, bytes: 2 });
        for _ in 0..8 {
            let Some((out, mut cut)) = self.cut_text(s, text_room) else {
                return Value::String(s.to_string());
            };
            let candidate = Value::String(out);
            let size = json_size(&candidate);
            if room.fits(size) || text_room.is_empty() {
                cut.path = path.to_string();
                cuts.push(cut);
                return candidate;
            }
            let over = Size {
                chars: size.chars.saturating_sub(room.chars),
                bytes: size.bytes.saturating_sub(room.bytes),
            };
            text_room = text_room.minus(Size {
                chars: over.chars.max(over.bytes) + 8,
                bytes: over.chars.max(over.bytes) + 8,
            });
        }
        let marker = self.text_marker(0, s.chars().count(), true);
        cuts.push(ModelCut {
            path: path.to_string(),
            kind: CutKind::Text,
            dropped_lines: s.matches('\n').count(),
            dropped_chars: s.chars().count(),
            dropped_items: 0,
        });
        Value::String(marker)
    }

    fn cut_array(
        &self,
        items: &[Value],
        room: Room,
        path: &mut String,
        cuts: &mut Vec<ModelCut>,
    ) -> Value {
        let n = items.len();
        let marker = Value::String(self.items_marker(n, ("item", "items")));
        // Brackets, the marker item and its comma.
        let mut left = room.minus(json_size(&marker).plus(Size { chars: 3, bytes: 3 }));
        let mut front = 0;
        let mut back = 0;
        let mut turn_front = true;
        let mut front_done = false;
        let mut back_done = self.keep == Keep::Head;
        while front + back < n && !(front_done && back_done) {
            let take_front = !front_done && (turn_front || back_done);
            let i = if take_front { front } else { n - 1 - back };
            let cost = json_size(&items[i]).plus(Size { chars: 1, bytes: 1 });
            if left.fits(cost) {
                left = left.minus(cost);
                if take_front {
                    front += 1;
                } else {
                    back += 1;
                }
            } else if take_front {
                front_done = true;
            } else {
                back_done = true;
            }
            turn_front = !turn_front;
        }
        let mut out = Vec::with_capacity(front + back + 2);
        out.extend(items[..front].iter().cloned());
        // Nothing fits whole: the first item not kept is cut into the room left.
        if front == 0 && back == 0 && n > 0 && !left.is_empty() {
            let len = path.len();
            path.push_str("/0");
            out.push(self.cut_value(&items[0], left, path, cuts));
            path.truncate(len);
            front = 1;
        }
        let dropped = n - front - back;
        if dropped > 0 {
            let marker = Value::String(self.items_marker(dropped, ("item", "items")));
            let dropped_chars = items[front..n - back]
                .iter()
                .map(|v| json_size(v).chars)
                .sum();
            cuts.push(ModelCut {
                path: path.clone(),
                kind: CutKind::Items,
                dropped_lines: 0,
                dropped_chars,
                dropped_items: dropped,
            });
            out.push(marker);
        }
        out.extend(items[n - back..].iter().cloned());
        Value::Array(out)
    }

    fn cut_object(
        &self,
        map: &Map<String, Value>,
        room: Room,
        path: &mut String,
        cuts: &mut Vec<ModelCut>,
    ) -> Value {
        let n = map.len();
        // The marker member's key: `…`, or more ellipses when `…` is taken.
        let mut key = String::from("…");
        while map.contains_key(&key) {
            key.push('…');
        }
        let marker_cost = json_size(&Value::String(key.clone()))
            .plus(json_size(&Value::String(
                self.items_marker(n, ("member", "members")),
            )))
            .plus(Size { chars: 4, bytes: 4 });
        let mut left = room.minus(marker_cost);
        let mut out = Map::new();
        let mut kept = 0;
        let mut cut_one = false;
        let sizes: Vec<Size> = map
            .iter()
            .map(|(k, v)| {
                json_size(&Value::String(k.clone()))
                    .plus(Size { chars: 2, bytes: 2 })
                    .plus(json_size(v))
            })
            .collect();
        for (i, (k, v)) in map.iter().enumerate() {
            if left.fits(sizes[i]) {
                left = left.minus(sizes[i]);
                out.insert(k.clone(), v.clone());
                kept += 1;
                continue;
            }
            if cut_one {
                continue;
            }
            // The first member that does not fit is cut into what is left,
            // less what the members after it need when they are small (a
            // status beside a long log keeps the status).
            cut_one = true;
            let key_cost = json_size(&Value::String(k.clone())).plus(Size { chars: 2, bytes: 2 });
            let rest = sizes[i + 1..]
                .iter()
                .fold(Size::default(), |a, s| a.plus(*s));
            let half = left.share(50);
            let reserve = if half.fits(rest) {
                rest
            } else {
                Size::default()
            };
            let value_room = left.minus(key_cost).minus(reserve);
            if value_room.chars >= MIN_MODEL_ROOM / 4 && value_room.bytes >= MIN_MODEL_ROOM / 4 {
                let len = path.len();
                push_pointer_token(path, k);
                let cut = self.cut_value(v, value_room, path, cuts);
                path.truncate(len);
                left = left.minus(key_cost.plus(json_size(&cut)));
                out.insert(k.clone(), cut);
                kept += 1;
            }
        }
        let dropped = n - kept;
        if dropped > 0 {
            let dropped_chars = map
                .iter()
                .zip(&sizes)
                .filter(|((k, _), _)| !out.contains_key(*k))
                .map(|(_, s)| s.chars - 1)
                .sum();
            cuts.push(ModelCut {
                path: path.clone(),
                kind: CutKind::Keys,
                dropped_lines: 0,
                dropped_chars,
                dropped_items: dropped,
            });
            out.insert(
                key,
                Value::String(self.items_marker(dropped, ("member", "members"))),
            );
        }
        Value::Object(out)
    }

    /// Content blocks (MCP `ContentBlock`s) within the room: media kept
    /// whole or replaced by a placeholder, text blocks sharing what is left
    /// in proportion to their length.
    pub fn cut_blocks(&self, blocks: &[Value], cuts: &mut Vec<ModelCut>) -> Vec<Value> {
        let measured: Vec<Block> = blocks.iter().map(Block::of).collect();
        let total = measured
            .iter()
            .fold(Size::default(), |acc, b| acc.plus(b.size));
        if self.room.fits(total) {
            return blocks.to_vec();
        }
        let text_total = measured
            .iter()
            .filter(|b| b.kind == BlockKind::Text)
            .fold(Size::default(), |acc, b| acc.plus(b.size));
        // Media may use what text does not need, and at least half the room.
        let half = self.room.share(50);
        let text_claim = Size {
            chars: text_total.chars.min(half.chars),
            bytes: text_total.bytes.min(half.bytes),
        };
        let mut media_room = self.room.minus(text_claim);
        let mut out: Vec<Option<Value>> = alloc::vec![None; blocks.len()];
        let mut used = Size::default();
        for (i, b) in measured.iter().enumerate() {
            match b.kind {
                BlockKind::Text => {}
                BlockKind::Other => {
                    // Links and small structured blocks: kept; they are short.
                    used = used.plus(b.size);
                    media_room = media_room.minus(b.size);
                    out[i] = Some(blocks[i].clone());
                }
                BlockKind::Media => {
                    if media_room.fits(b.size) {
                        media_room = media_room.minus(b.size);
                        used = used.plus(b.size);
                        out[i] = Some(blocks[i].clone());
                    } else {
                        let text = self.placeholder(&blocks[i], b.size);
                        let placeholder = serde_json::json!({ "type": "text", "text": text });
                        used = used.plus(Size::of(&text));
                        cuts.push(ModelCut {
                            path: format!("/content/{i}"),
                            kind: CutKind::Media,
                            dropped_lines: 0,
                            dropped_chars: b.size.chars,
                            dropped_items: 1,
                        });
                        out[i] = Some(placeholder);
                    }
                }
            }
        }
        // Text blocks share the rest by water-filling: a block shorter than
        // its share is kept whole and the surplus goes to the others.
        let mut left = self.room.minus(used);
        let mut pending: Vec<usize> = (0..blocks.len())
            .filter(|&i| measured[i].kind == BlockKind::Text)
            .collect();
        loop {
            let count = pending.len();
            if count == 0 {
                break;
            }
            let share = Room {
                chars: left.chars / count,
                bytes: left.bytes / count,
            };
            let (whole, rest): (Vec<usize>, Vec<usize>) =
                pending.iter().partition(|&&i| share.fits(measured[i].size));
            if whole.is_empty() {
                break;
            }
            for i in whole {
                left = left.minus(measured[i].size);
                out[i] = Some(blocks[i].clone());
            }
            pending = rest;
        }
        let count = pending.len().max(1);
        let share = Room {
            chars: left.chars / count,
            bytes: left.bytes / count,
        };
        for i in pending {
            let text = blocks[i].get("text").and_then(Value::as_str).unwrap_or("");
            let mut block = blocks[i].clone();
            if let Some((cut_text, mut cut)) = self.cut_text(text, share) {
                cut.path = format!("/content/{i}/text");
                cuts.push(cut);
                block["text"] = Value::String(cut_text);
            }
            out[i] = Some(block);
        }
        out.into_iter().map(|b| b.unwrap_or(Value::Null)).collect()
    }

    fn terse_placeholder(block: &Value, size: Size) -> String {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or("media");
        format!("[{kind}, {} not shown]", human_bytes(size.bytes / 4 * 3))
    }

    fn placeholder(&self, block: &Value, size: Size) -> String {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or("media");
        let mime = block
            .get("mimeType")
            .or_else(|| block.pointer("/resource/mimeType"))
            .or_else(|| block.get("mediaType"))
            .and_then(Value::as_str)
            .unwrap_or("unknown type");
        // Base64 carries 3 bytes in 4 characters.
        let bytes = size.bytes / 4 * 3;
        format!(
            "[{kind} {mime}, {} not shown{}]",
            human_bytes(bytes),
            self.how()
        )
    }

    /// The room this cutter was made with.
    pub fn room(&self) -> Room {
        self.room
    }
}

/// What a model is given of a result: its content blocks and its output,
/// each within the room, and what was cut.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelBound {
    /// The output, cut to fit when it did not (absent when there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The content blocks, cut to fit (absent when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Vec<Value>>,
    /// True when anything was cut.
    pub truncated: bool,
    /// Every cut, in document order.
    pub cuts: Vec<ModelCut>,
    /// What the model would be shown uncut: the content when there is some
    /// (as MCP clients show it), else the output (text, or compact JSON).
    pub before: Size,
    /// The same, after the cuts.
    pub after: Size,
}

/// The size of what a model is shown: content blocks when there are some
/// (text, media data, other blocks as JSON), else the output.
pub fn shown_size(output: Option<&Value>, content: Option<&[Value]>) -> Size {
    match (content, output) {
        (Some(blocks), _) if !blocks.is_empty() => blocks
            .iter()
            .fold(Size::default(), |acc, b| acc.plus(Block::of(b).size)),
        (_, Some(Value::String(s))) => Size::of(s),
        (_, Some(v)) => json_size(v),
        _ => Size::default(),
    }
}

/// Bounds a result's output and content blocks for a model (module docs).
/// Both are bounded to the room: a client shows one or the other. The result
/// always fits: when the cuts leave it over (markers are counted before the
/// numbers in them are known), the room shrinks by the overflow and the
/// cuts run again.
pub fn bound_for_model(
    output: Option<&Value>,
    content: Option<&[Value]>,
    room: Room,
    keep: Keep,
    reference: &str,
) -> ModelBound {
    let before = shown_size(output, content);
    let mut try_room = room;
    for _ in 0..6 {
        let cutter = ModelCutter::new(try_room, keep, reference);
        let mut cuts = Vec::new();
        let content_out = content.map(|blocks| cutter.cut_blocks(blocks, &mut cuts));
        let output_out = output.map(|v| match v {
            Value::String(s) => match cutter.cut_text(s, try_room) {
                Some((text, mut cut)) => {
                    cut.path = String::from("/output");
                    cuts.push(cut);
                    Value::String(text)
                }
                None => v.clone(),
            },
            other => cutter.cut_value(other, try_room, &mut String::from("/output"), &mut cuts),
        });
        let after = shown_size(output_out.as_ref(), content_out.as_deref());
        let output_size = match &output_out {
            Some(Value::String(s)) => Size::of(s),
            Some(v) => json_size(v),
            None => Size::default(),
        };
        if (room.fits(after) && room.fits(output_size)) || try_room.chars <= MIN_MODEL_ROOM / 4 {
            cuts.sort_by(|a, b| a.path.cmp(&b.path));
            return ModelBound {
                truncated: !cuts.is_empty(),
                output: output_out,
                content: content_out,
                cuts,
                before,
                after,
            };
        }
        let over = |a: Size| {
            a.chars
                .saturating_sub(room.chars)
                .max(a.bytes.saturating_sub(room.bytes))
        };
        let shrink = over(after).max(over(output_size)) + 16;
        try_room = Room {
            chars: try_room
                .chars
                .min(room.chars.min(room.bytes))
                .saturating_sub(shrink),
            bytes: try_room.bytes.min(room.bytes).saturating_sub(shrink),
        };
    }
    // Nothing fits (many blocks in a small room): every block becomes a terse
    // text marker, so the blocks keep their places; the output one marker.
    let cutter = ModelCutter::new(room, keep, reference);
    let mut cuts = Vec::new();
    let content_out = content.map(|blocks| {
        blocks
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let block = Block::of(b);
                let text = if block.kind == BlockKind::Media {
                    ModelCutter::terse_placeholder(b, block.size)
                } else {
                    cutter.text_marker(0, block.size.chars, true)
                };
                cuts.push(ModelCut {
                    path: format!("/content/{i}"),
                    kind: if block.kind == BlockKind::Media {
                        CutKind::Media
                    } else {
                        CutKind::Text
                    },
                    dropped_lines: 0,
                    dropped_chars: block.size.chars,
                    dropped_items: usize::from(block.kind == BlockKind::Media),
                });
                serde_json::json!({ "type": "text", "text": text })
            })
            .collect::<Vec<Value>>()
    });
    let output_out = output.map(|v| {
        let size = match v {
            Value::String(s) => Size::of(s),
            other => json_size(other),
        };
        cuts.push(ModelCut {
            path: String::from("/output"),
            kind: CutKind::Text,
            dropped_lines: 0,
            dropped_chars: size.chars,
            dropped_items: 0,
        });
        Value::String(cutter.text_marker(0, size.chars, false))
    });
    let after = shown_size(output_out.as_ref(), content_out.as_deref());
    ModelBound {
        output: output_out,
        content: content_out,
        truncated: true,
        cuts,
        before,
        after,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Text,
    Media,
    Other,
}

struct Block {
    kind: BlockKind,
    size: Size,
}

impl Block {
    fn of(block: &Value) -> Block {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
        let media = block
            .get("data")
            .or_else(|| block.pointer("/resource/blob"))
            .and_then(Value::as_str);
        match (kind, media) {
            ("text", _) => Block {
                kind: BlockKind::Text,
                size: Size::of(block.get("text").and_then(Value::as_str).unwrap_or("")),
            },
            (_, Some(data)) => Block {
                kind: BlockKind::Media,
                size: Size {
                    chars: data.len(),
                    bytes: data.len(),
                },
            },
            ("resource", None) => {
                // An embedded text resource counts as its text.
                let text = block
                    .pointer("/resource/text")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                Block {
                    kind: BlockKind::Other,
                    size: Size::of(text),
                }
            }
            _ => Block {
                kind: BlockKind::Other,
                size: json_size(block),
            },
        }
    }
}

/// The size of a value's compact JSON serialization.
pub fn json_size(value: &Value) -> Size {
    match value {
        Value::String(s) if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') => Size {
            chars: s.chars().count() + 2,
            bytes: s.len() + 2,
        },
        _ => Size::of(&serde_json::to_string(value).unwrap_or_default()),
    }
}

/// The end (a char boundary) of the longest prefix of `text` within `room`.
fn prefix_within(text: &str, room: Room) -> usize {
    for (count, (i, c)) in text.char_indices().enumerate() {
        if count + 1 > room.chars || i + c.len_utf8() > room.bytes {
            return i;
        }
    }
    text.len()
}

/// The start (a char boundary) of the longest suffix of `text` within `room`.
fn suffix_within(text: &str, room: Room) -> usize {
    let mut start = text.len();
    for (count, (i, _)) in text.char_indices().rev().enumerate() {
        if count + 1 > room.chars || text.len() - i > room.bytes {
            return start;
        }
        start = i;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use serde_json::json;

    fn cutter(chars: usize, keep: Keep) -> ModelCutter<'static> {
        ModelCutter::new(Room::new(Some(chars), None), keep, "call_1")
    }

    #[test]
    fn text_keeps_head_and_tail_on_line_boundaries() {
        let text: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        let c = cutter(400, Keep::HeadTail);
        let (out, cut) = c.cut_text(&text, c.room()).unwrap();
        assert!(out.chars().count() <= 400, "{}", out.chars().count());
        assert!(out.starts_with("line 1\n"));
        assert!(out.ends_with("line 1000\n"));
        assert!(out.contains("get_tool_result(\"call_1\")"));
        assert_eq!(cut.kind, CutKind::Text);
        let kept_lines = out.lines().filter(|l| l.starts_with("line ")).count();
        assert_eq!(kept_lines + cut.dropped_lines, 1000);
        let head = cutter(400, Keep::Head).cut_text(&text, c.room()).unwrap().0;
        assert!(!head.contains("line 1000"));
        assert!(cutter(100_000, Keep::HeadTail)
            .cut_text(&text, Room::new(Some(100_000), None))
            .is_none());
    }

    #[test]
    fn json_arrays_keep_first_and_last_items_and_stay_json() {
        let v = json!({ "rows": (0..500).collect::<Vec<_>>(), "ok": true });
        let c = cutter(300, Keep::HeadTail);
        let mut cuts = Vec::new();
        let out = c.cut_value(&v, c.room(), &mut String::from("/output"), &mut cuts);
        let text = serde_json::to_string(&out).unwrap();
        assert!(text.chars().count() <= 300, "{text}");
        assert_eq!(out["ok"], true, "{text}");
        let rows = out["rows"].as_array().unwrap();
        assert_eq!(rows[0], 0);
        assert_eq!(rows[rows.len() - 1], 499);
        assert_eq!(cuts[0].path, "/output/rows");
        assert_eq!(cuts[0].kind, CutKind::Items);
        assert_eq!(cuts[0].dropped_items + rows.len() - 1, 500);
    }

    #[test]
    fn media_is_whole_or_a_placeholder() {
        let data = "A".repeat(40_000);
        let blocks = vec![
            json!({ "type": "text", "text": "x".repeat(5000) }),
            json!({ "type": "image", "data": data, "mimeType": "image/png" }),
        ];
        let c = cutter(2000, Keep::HeadTail);
        let mut cuts = Vec::new();
        let out = c.cut_blocks(&blocks, &mut cuts);
        assert_eq!(out[1]["type"], "text");
        assert!(out[1]["text"]
            .as_str()
            .unwrap()
            .starts_with("[image image/png, 29.3 KB not shown"));
        assert!(out[0]["text"].as_str().unwrap().chars().count() < 2000);
        assert_eq!(cuts.len(), 2);
        let small = vec![json!({ "type": "image", "data": "QUJD", "mimeType": "image/png" })];
        assert_eq!(c.cut_blocks(&small, &mut Vec::new()), small);
    }
}
