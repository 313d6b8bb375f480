//! The parts of a Vercel AI SDK `content` tool output (AI SDK 6 and 7) and
//! the ToolResult content blocks they become (docs/guide/conversions.md "Supported shapes",
//! "AI SDK content parts").
//!
//! A part with an MCP form becomes that MCP block: inline image and audio
//! data `image` / `audio`, other inline data an embedded `resource` with a
//! `blob`, inline text an embedded `resource` with `text`, a URL a
//! `resource_link`. Provider file references and `custom` parts have no MCP
//! form and become blocks of their own (`ai-sdk/file-reference`,
//! `ai-sdk/custom`), which `to_mcp` refuses. Every block read from a
//! non-text part carries the part's type in `_meta["ai-sdk/type"]`, and the
//! part's fields MCP has no place for (`filename`, `providerOptions`,
//! `originalUrl`) in `_meta["ai-sdk/<field>"]`, so the part written back for
//! the same SDK major is the part read.

use alloc::format;
use alloc::string::String;
use serde_json::{json, Map, Value};

use super::common::{block_as_text, issue, str_of};
use crate::issue::{quote_text, IssueCode, Issues};
use crate::validate::check::json_type;

/// The AI SDK major whose part names a conversion writes. They differ in
/// the parts of a `content` output: 7 adds `file` (with tagged `data`: inline
/// data, a URL, a provider reference or inline text), `file-reference` and
/// `image-file-reference`, and drops `media`; 6's other kinds are still
/// taken by 7 (deprecated there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AiSdk {
    /// AI SDK 6 (`ai` 6.x): `image-data`, `file-data`, `file-url`,
    /// `file-id`, `image-url`, `image-file-id`, `media`, `custom`.
    V6,
    /// AI SDK 7 (`ai` 7.x): `file` for every file, and `custom`.
    #[default]
    V7,
}

impl AiSdk {
    /// The majors written, by name.
    pub const SUPPORTED: &'static [&'static str] = &["6", "7"];
    /// The major named `s` (`"6"`, `"7"`), if supported.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "6" => Some(AiSdk::V6),
            "7" => Some(AiSdk::V7),
            _ => None,
        }
    }

    /// Whether this major has a `content` part of type `kind`.
    fn has(self, kind: &str) -> bool {
        match kind {
            "file" | "file-reference" | "image-file-reference" => self == AiSdk::V7,
            "media" => self == AiSdk::V6,
            _ => true,
        }
    }
}

/// The block type of a provider file reference (`file` with `reference`
/// data, `file-id`, `file-reference`, `image-file-id`, `image-file-reference`).
pub const FILE_REFERENCE_BLOCK: &str = "ai-sdk/file-reference";
/// The block type of a `custom` part.
pub const CUSTOM_BLOCK: &str = "ai-sdk/custom";
/// The `uri` of an embedded resource made from inline file data (the AI SDK
/// part has no URI; MCP requires one).
pub const INLINE_URI: &str = "ai-sdk:inline";

const TYPE_KEY: &str = "ai-sdk/type";
const FILENAME_KEY: &str = "ai-sdk/filename";
const ORIGINAL_URL_KEY: &str = "ai-sdk/originalUrl";
const PROVIDER_OPTIONS_KEY: &str = "ai-sdk/providerOptions";

// ---------------------------------------------------------------------------
// AI SDK part → block

/// A part being read, with the JSON Pointer of its fields for issues
/// (the OpenAI and Anthropic conversions read their parts with it too).
pub(super) struct Part<'a> {
    pub(super) o: &'a Map<String, Value>,
    pub(super) path: String,
}

impl<'a> Part<'a> {
    pub(super) fn at(&self, key: &str) -> String {
        format!("{}/{key}", self.path)
    }

    /// Refuses fields the conversion would drop.
    pub(super) fn fields(&self, allowed: &[&str], what: &str) -> Result<(), Issues> {
        match self.o.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(issue(
                &self.at(k),
                IssueCode::UnknownField,
                format!(
                    "unknown field {} in {what}; it would be lost in conversion",
                    quote_text(k, '`')
                ),
            )),
            None => Ok(()),
        }
    }

    pub(super) fn string(&self, key: &str, what: &str) -> Result<&'a str, Issues> {
        match self.o.get(key) {
            Some(Value::String(s)) => Ok(s),
            None => Err(issue(
                &self.at(key),
                IssueCode::MissingField,
                format!("{what} needs `{key}` (a string)"),
            )),
            Some(v) => Err(issue(
                &self.at(key),
                IssueCode::InvalidType,
                format!("`{key}` of {what} is a string, got {}", json_type(v)),
            )),
        }
    }

    pub(super) fn optional_string(&self, key: &str, what: &str) -> Result<Option<&'a str>, Issues> {
        match self.o.get(key) {
            None => Ok(None),
            Some(_) => self.string(key, what).map(Some),
        }
    }

    pub(super) fn object(&self, key: &str, what: &str) -> Result<&'a Map<String, Value>, Issues> {
        match self.o.get(key) {
            Some(Value::Object(o)) => Ok(o),
            None => Err(issue(
                &self.at(key),
                IssueCode::MissingField,
                format!("{what} needs `{key}` (an object)"),
            )),
            Some(v) => Err(issue(
                &self.at(key),
                IssueCode::InvalidType,
                format!("`{key}` of {what} is an object, got {}", json_type(v)),
            )),
        }
    }

    fn provider_options(&self) -> Result<Option<&'a Value>, Issues> {
        match self.o.get("providerOptions") {
            None => Ok(None),
            Some(v @ Value::Object(_)) => Ok(Some(v)),
            Some(v) => Err(issue(
                &self.at("providerOptions"),
                IssueCode::InvalidType,
                format!(
                    "providerOptions is an object (provider name → options), got {}",
                    json_type(v)
                ),
            )),
        }
    }

    /// A provider reference: `{ provider: id }`, every id a string; with
    /// `bare_id`, also a plain id string (`fileId` of `file-id` parts).
    fn reference(&self, key: &str, what: &str, bare_id: bool) -> Result<&'a Value, Issues> {
        let expected = if bare_id {
            "a file id string or an object of provider name → file id"
        } else {
            "an object of provider name → file id"
        };
        match self.o.get(key) {
            Some(v @ Value::String(_)) if bare_id => Ok(v),
            Some(v @ Value::Object(ids)) => match ids.iter().find(|(_, id)| !id.is_string()) {
                Some((provider, id)) => Err(issue(
                    &format!("{}/{}", self.at(key), escape(provider)),
                    IssueCode::InvalidType,
                    format!("a provider's file id is a string, got {}", json_type(id)),
                )),
                None => Ok(v),
            },
            None => Err(issue(
                &self.at(key),
                IssueCode::MissingField,
                format!("{what} needs `{key}` ({expected})"),
            )),
            Some(v) => Err(issue(
                &self.at(key),
                IssueCode::InvalidType,
                format!("`{key}` of {what} is {expected}, got {}", json_type(v)),
            )),
        }
    }
}

/// A JSON Pointer segment for `key` (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// What a block remembers of its part in `_meta`.
#[derive(Default, Clone, Copy)]
struct Carried<'a> {
    kind: Option<&'a str>,
    filename: Option<&'a str>,
    original_url: Option<&'a str>,
    provider_options: Option<&'a Value>,
}

fn with_meta(mut block: Map<String, Value>, carried: Carried<'_>) -> Value {
    let mut meta = Map::new();
    for (key, value) in [
        (TYPE_KEY, carried.kind.map(|s| json!(s))),
        (FILENAME_KEY, carried.filename.map(|s| json!(s))),
        (ORIGINAL_URL_KEY, carried.original_url.map(|s| json!(s))),
        (PROVIDER_OPTIONS_KEY, carried.provider_options.cloned()),
    ] {
        if let Some(v) = value {
            meta.insert(key.into(), v);
        }
    }
    if !meta.is_empty() {
        block.insert("_meta".into(), Value::Object(meta));
    }
    Value::Object(block)
}

/// The top-level media type (`image` of `image/png` or of `image`), lowercase.
fn top_level(media_type: &str) -> String {
    media_type
        .split('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Inline base64 data: `image` or `audio` for those media types, else an
/// embedded resource with a `blob`.
fn inline_data_block(data: &str, media_type: &str) -> Map<String, Value> {
    let mut block = Map::new();
    if let kind @ ("image" | "audio") = top_level(media_type).as_str() {
        block.insert("type".into(), json!(kind));
        block.insert("data".into(), json!(data));
        block.insert("mimeType".into(), json!(media_type));
    } else {
        block.insert("type".into(), json!("resource"));
        block.insert(
            "resource".into(),
            json!({"uri": INLINE_URI, "mimeType": media_type, "blob": data}),
        );
    }
    block
}

fn link_block(url: &str, name: &str, media_type: Option<&str>) -> Map<String, Value> {
    let mut block = Map::new();
    block.insert("type".into(), json!("resource_link"));
    block.insert("uri".into(), json!(url));
    block.insert("name".into(), json!(name));
    if let Some(m) = media_type {
        block.insert("mimeType".into(), json!(m));
    }
    block
}

fn reference_block(reference: &Value, media_type: Option<&str>) -> Map<String, Value> {
    let mut block = Map::new();
    block.insert("type".into(), json!(FILE_REFERENCE_BLOCK));
    block.insert("reference".into(), reference.clone());
    if let Some(m) = media_type {
        block.insert("mimeType".into(), json!(m));
    }
    block
}

const PART_TYPES: &str = "text, file, file-data, file-url, file-id, file-reference, image-data, \
                          image-url, image-file-id, image-file-reference, media or custom";

/// A part of a tool-message `content` output (either SDK major) as a
/// ToolResult content block; `i` is its index in `output.value`.
pub(super) fn block_from_part(p: &Value, i: usize) -> Result<Value, Issues> {
    let path = format!("/output/value/{i}");
    let o = p.as_object().ok_or_else(|| {
        issue(
            &path,
            IssueCode::InvalidType,
            format!("a content part is an object, got {}", json_type(p)),
        )
    })?;
    let part = Part { o, path };
    let kind = part.string("type", "a content part")?;
    let what = format!("a {} content part", quote_text(kind, '`'));
    let what = what.as_str();
    let carried = |filename, provider_options| Carried {
        kind: Some(kind),
        filename,
        original_url: None,
        provider_options,
    };
    let block = match kind {
        "text" => {
            part.fields(&["type", "text", "providerOptions"], what)?;
            let mut block = Map::new();
            block.insert("type".into(), json!("text"));
            block.insert("text".into(), json!(part.string("text", what)?));
            let provider_options = part.provider_options()?;
            with_meta(
                block,
                Carried {
                    provider_options,
                    ..Carried::default()
                },
            )
        }
        "file" => return file_block(&part, what),
        "file-data" => {
            part.fields(
                &["type", "data", "mediaType", "filename", "providerOptions"],
                what,
            )?;
            let block =
                inline_data_block(part.string("data", what)?, part.string("mediaType", what)?);
            with_meta(
                block,
                carried(
                    part.optional_string("filename", what)?,
                    part.provider_options()?,
                ),
            )
        }
        "image-data" | "media" => {
            let allowed: &[&str] = if kind == "media" {
                &["type", "data", "mediaType"]
            } else {
                &["type", "data", "mediaType", "providerOptions"]
            };
            part.fields(allowed, what)?;
            let data = part.string("data", what)?;
            let media_type = part.string("mediaType", what)?;
            // An image part is an image block whatever its media type says;
            // the AI SDK 6 `media` part is audio for audio types.
            let block_kind = if kind == "media" && top_level(media_type) == "audio" {
                "audio"
            } else {
                "image"
            };
            let mut block = Map::new();
            block.insert("type".into(), json!(block_kind));
            block.insert("data".into(), json!(data));
            block.insert("mimeType".into(), json!(media_type));
            with_meta(block, carried(None, part.provider_options()?))
        }
        "file-url" | "image-url" => {
            let allowed: &[&str] = if kind == "file-url" {
                &["type", "url", "mediaType", "providerOptions"]
            } else {
                &["type", "url", "providerOptions"]
            };
            part.fields(allowed, what)?;
            let url = part.string("url", what)?;
            let block = link_block(url, url, part.optional_string("mediaType", what)?);
            with_meta(block, carried(None, part.provider_options()?))
        }
        "file-id" | "image-file-id" => {
            part.fields(&["type", "fileId", "providerOptions"], what)?;
            let block = reference_block(part.reference("fileId", what, true)?, None);
            with_meta(block, carried(None, part.provider_options()?))
        }
        "file-reference" | "image-file-reference" => {
            part.fields(&["type", "providerReference", "providerOptions"], what)?;
            let block = reference_block(part.reference("providerReference", what, false)?, None);
            with_meta(block, carried(None, part.provider_options()?))
        }
        "custom" => {
            part.fields(&["type", "providerOptions"], what)?;
            let mut block = Map::new();
            block.insert("type".into(), json!(CUSTOM_BLOCK));
            with_meta(block, carried(None, part.provider_options()?))
        }
        other => {
            return Err(issue(
                &part.at("type"),
                IssueCode::InvalidEnum,
                format!(
                    "unknown content part type {}; expected {PART_TYPES}",
                    quote_text(other, '`')
                ),
            ))
        }
    };
    Ok(block)
}

/// An AI SDK 7 `file` part: its `data` is tagged `data`, `url`, `reference`
/// or `text`.
fn file_block(part: &Part<'_>, what: &str) -> Result<Value, Issues> {
    part.fields(
        &["type", "data", "mediaType", "filename", "providerOptions"],
        what,
    )?;
    let media_type = part.string("mediaType", what)?;
    let filename = part.optional_string("filename", what)?;
    let provider_options = part.provider_options()?;
    let data = Part {
        o: part.object("data", what)?,
        path: part.at("data"),
    };
    let tag = data.string("type", "a file part's data")?;
    let data_what = format!("a file part's {} data", quote_text(tag, '`'));
    let data_what = data_what.as_str();
    let mut carried = Carried {
        kind: Some("file"),
        filename,
        original_url: None,
        provider_options,
    };
    let block = match tag {
        "data" => {
            data.fields(&["type", "data"], data_what)?;
            inline_data_block(data.string("data", data_what)?, media_type)
        }
        "url" => {
            data.fields(&["type", "url", "originalUrl"], data_what)?;
            let url = data.string("url", data_what)?;
            carried.original_url = data.optional_string("originalUrl", data_what)?;
            link_block(url, filename.unwrap_or(url), Some(media_type))
        }
        "reference" => {
            data.fields(&["type", "reference"], data_what)?;
            reference_block(
                data.reference("reference", data_what, false)?,
                Some(media_type),
            )
        }
        "text" => {
            data.fields(&["type", "text"], data_what)?;
            let text = data.string("text", data_what)?;
            let mut block = Map::new();
            block.insert("type".into(), json!("resource"));
            block.insert(
                "resource".into(),
                json!({"uri": INLINE_URI, "mimeType": media_type, "text": text}),
            );
            block
        }
        other => {
            return Err(issue(
                &data.at("type"),
                IssueCode::InvalidEnum,
                format!(
                    "unknown file data type {}; expected data, url, reference or text",
                    quote_text(other, '`')
                ),
            ))
        }
    };
    Ok(with_meta(block, carried))
}

// ---------------------------------------------------------------------------
// block → AI SDK part

/// A block being written, with the JSON Pointer of its fields for issues.
struct Block<'a> {
    o: &'a Map<String, Value>,
    path: String,
}

impl<'a> Block<'a> {
    fn string_in(&self, o: &'a Map<String, Value>, at: &str, key: &str) -> Result<&'a str, Issues> {
        match o.get(key) {
            Some(Value::String(s)) => Ok(s),
            None => Err(issue(
                &format!("{}{at}/{key}", self.path),
                IssueCode::MissingField,
                format!("this content block needs `{key}` (a string) to become an AI SDK part"),
            )),
            Some(v) => Err(issue(
                &format!("{}{at}/{key}", self.path),
                IssueCode::InvalidType,
                format!(
                    "`{key}` of this content block is a string, got {}",
                    json_type(v)
                ),
            )),
        }
    }

    fn string(&self, key: &str) -> Result<&'a str, Issues> {
        self.string_in(self.o, "", key)
    }

    fn meta(&self, key: &str) -> Option<&'a Value> {
        self.o.get("_meta")?.as_object()?.get(key)
    }

    fn meta_str(&self, key: &str) -> Option<&'a str> {
        self.meta(key).and_then(Value::as_str)
    }
}

/// A part built field by field; `providerOptions` and `filename` from the
/// block's `_meta` are added when the part type has them.
struct Out(Map<String, Value>);

impl Out {
    fn new(kind: &str) -> Self {
        let mut o = Map::new();
        o.insert("type".into(), json!(kind));
        Out(o)
    }
    fn set(mut self, key: &str, value: Value) -> Self {
        self.0.insert(key.into(), value);
        self
    }
    fn maybe(self, key: &str, value: Option<&str>) -> Self {
        match value {
            Some(v) => self.set(key, json!(v)),
            None => self,
        }
    }
    fn finish(mut self, b: &Block<'_>) -> Value {
        let kind = self.0.get("type").and_then(Value::as_str).unwrap_or("");
        let has_filename = matches!(kind, "file" | "file-data");
        let has_provider_options = kind != "media";
        if has_filename && !self.0.contains_key("filename") {
            if let Some(name) = b.meta_str(FILENAME_KEY) {
                self.0.insert("filename".into(), json!(name));
            }
        }
        // The AI SDK 6 `media` part has no providerOptions.
        if has_provider_options {
            if let Some(po @ Value::Object(_)) = b.meta(PROVIDER_OPTIONS_KEY) {
                self.0.insert("providerOptions".into(), po.clone());
            }
        }
        Value::Object(self.0)
    }
}

/// A ToolResult content block as a part of a tool-message `content` output
/// for `sdk`; `i` is its index in `content`. A block read from a part names
/// that part in `_meta["ai-sdk/type"]` and becomes it again when `sdk` has
/// it; otherwise the block becomes `sdk`'s nearest part. Blocks with no file
/// part (MCP's own `resource_link` and `resource`, unknown types) become
/// text, as for every target that cannot hold them.
pub(super) fn part_from_block(b: &Value, i: usize, sdk: AiSdk) -> Result<Value, Issues> {
    let Some(o) = b.as_object() else {
        return Ok(json!({"type": "text", "text": block_as_text(b)}));
    };
    let b = Block {
        o,
        path: format!("/content/{i}"),
    };
    let mark = b.meta_str(TYPE_KEY).filter(|m| sdk.has(m));
    let v7 = sdk == AiSdk::V7;
    let note = || Out::new("text").set("text", json!(block_as_text(&Value::Object(o.clone()))));
    let part = match str_of(o, "type") {
        Some("text") => Out::new("text").set("text", json!(b.string("text")?)),
        Some(kind @ ("image" | "audio")) => {
            let data = json!(b.string("data")?);
            let media_type = json!(b.string("mimeType")?);
            let kind = match mark {
                Some(m @ ("file" | "file-data" | "image-data" | "media")) => m,
                _ if v7 => "file",
                _ if kind == "image" => "image-data",
                _ => "file-data",
            };
            if kind == "file" {
                Out::new("file")
                    .set("data", json!({"type": "data", "data": data}))
                    .set("mediaType", media_type)
            } else {
                Out::new(kind)
                    .set("data", data)
                    .set("mediaType", media_type)
            }
        }
        Some("resource") => {
            let Some(Value::Object(r)) = o.get("resource") else {
                return Ok(note().finish(&b));
            };
            // `file` for an AI SDK 7 `file` part; `file-data` for a
            // `file-data` part, or a `file` part written for AI SDK 6.
            let file = match (mark, b.meta_str(TYPE_KEY)) {
                (Some("file"), _) => true,
                (Some("file-data"), _) | (None, Some("file")) => false,
                // An MCP resource: what it says, as for other targets.
                _ => return Ok(note().finish(&b)),
            };
            if let Some(Value::String(text)) = r.get("text") {
                if !file {
                    // AI SDK 6 has no inline text file: its text.
                    return Ok(Out::new("text").set("text", json!(text)).finish(&b));
                }
                let media_type = b.string_in(r, "/resource", "mimeType")?;
                Out::new("file")
                    .set("data", json!({"type": "text", "text": text}))
                    .set("mediaType", json!(media_type))
            } else {
                let blob = b.string_in(r, "/resource", "blob")?;
                let media_type = b.string_in(r, "/resource", "mimeType")?;
                if file {
                    Out::new("file")
                        .set("data", json!({"type": "data", "data": blob}))
                        .set("mediaType", json!(media_type))
                } else {
                    Out::new("file-data")
                        .set("data", json!(blob))
                        .set("mediaType", json!(media_type))
                }
            }
        }
        Some("resource_link") => {
            let kind = match (mark, b.meta_str(TYPE_KEY)) {
                (Some(m @ ("file" | "file-url" | "image-url")), _) => m,
                // A `file` URL part for AI SDK 6.
                (None, Some("file")) => "file-url",
                _ => return Ok(note().finish(&b)),
            };
            let url = b.string("uri")?;
            match kind {
                "file" => {
                    let mut data = Map::new();
                    data.insert("type".into(), json!("url"));
                    data.insert("url".into(), json!(url));
                    if let Some(original) = b.meta_str(ORIGINAL_URL_KEY) {
                        data.insert("originalUrl".into(), json!(original));
                    }
                    Out::new("file")
                        .set("data", Value::Object(data))
                        .set("mediaType", json!(b.string("mimeType")?))
                }
                "file-url" => Out::new("file-url")
                    .set("url", json!(url))
                    .maybe("mediaType", str_of(o, "mimeType")),
                _ => Out::new("image-url").set("url", json!(url)),
            }
        }
        Some(FILE_REFERENCE_BLOCK) => {
            let reference = o.get("reference").cloned().ok_or_else(|| {
                issue(
                    &format!("{}/reference", b.path),
                    IssueCode::MissingField,
                    String::from(
                        "a file reference block needs `reference` (provider name → file id, or a file id)",
                    ),
                )
            })?;
            let by_provider = reference.is_object();
            if !by_provider && !reference.is_string() {
                return Err(issue(
                    &format!("{}/reference", b.path),
                    IssueCode::InvalidType,
                    format!(
                        "`reference` is an object of provider name → file id or a file id string, got {}",
                        json_type(&reference)
                    ),
                ));
            }
            let media_type = str_of(o, "mimeType");
            let image = matches!(
                b.meta_str(TYPE_KEY),
                Some("image-file-id" | "image-file-reference")
            );
            let kind = match mark {
                Some("file") if by_provider && media_type.is_some() => "file",
                Some(m @ ("file-reference" | "image-file-reference")) if by_provider => m,
                Some(m @ ("file-id" | "image-file-id")) => m,
                _ if v7 && by_provider && media_type.is_some() && !image => "file",
                _ if v7 && by_provider && image => "image-file-reference",
                _ if v7 && by_provider => "file-reference",
                _ if image => "image-file-id",
                _ => "file-id",
            };
            match kind {
                "file" => Out::new("file")
                    .set("data", json!({"type": "reference", "reference": reference}))
                    .maybe("mediaType", media_type),
                "file-reference" | "image-file-reference" => {
                    Out::new(kind).set("providerReference", reference)
                }
                _ => Out::new(kind).set("fileId", reference),
            }
        }
        Some(CUSTOM_BLOCK) => Out::new("custom"),
        _ => note(),
    };
    Ok(part.finish(&b))
}
