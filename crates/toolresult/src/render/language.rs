//! The language of a file by its name, for `language` fields and syntax
//! highlighting: the names highlight.js and Prism use, by extension (or
//! whole file name for the few files known by name). `None` when unknown.

/// `src/main.rs` → `rust`, `Dockerfile` → `dockerfile`, `notes` → `None`.
pub fn detect_language(path: &str) -> Option<&'static str> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let by_name = match name {
        "Dockerfile" | "Containerfile" => Some("dockerfile"),
        "Makefile" | "GNUmakefile" | "makefile" => Some("makefile"),
        "CMakeLists.txt" => Some("cmake"),
        "Gemfile" | "Rakefile" => Some("ruby"),
        _ => None,
    };
    if by_name.is_some() {
        return by_name;
    }
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() && !matches!(ext, "bashrc" | "zshrc" | "profile") {
        return None;
    }
    let ext = ext.to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => "rust",
        "py" | "pyi" | "pyw" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "jsx" => "jsx",
        "ts" | "mts" | "cts" => "typescript",
        "tsx" => "tsx",
        "go" => "go",
        "java" => "java",
        "kt" | "kts" => "kotlin",
        "scala" => "scala",
        "swift" => "swift",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => "cpp",
        "cs" => "csharp",
        "fs" | "fsx" => "fsharp",
        "rb" => "ruby",
        "php" => "php",
        "pl" | "pm" => "perl",
        "lua" => "lua",
        "r" => "r",
        "jl" => "julia",
        "ex" | "exs" => "elixir",
        "erl" | "hrl" => "erlang",
        "hs" => "haskell",
        "ml" | "mli" => "ocaml",
        "clj" | "cljs" | "edn" => "clojure",
        "dart" => "dart",
        "zig" => "zig",
        "sh" | "bash" | "zsh" | "bashrc" | "zshrc" | "profile" => "bash",
        "fish" => "fish",
        "ps1" | "psm1" => "powershell",
        "bat" | "cmd" => "batch",
        "sql" => "sql",
        "html" | "htm" => "html",
        "xml" | "xsd" | "xsl" | "svg" | "plist" => "xml",
        "css" => "css",
        "scss" => "scss",
        "sass" => "sass",
        "less" => "less",
        "vue" => "vue",
        "svelte" => "svelte",
        "json" | "jsonc" | "json5" => "json",
        "jsonl" | "ndjson" => "jsonl",
        "yaml" | "yml" => "yaml",
        "toml" => "toml",
        "ini" | "cfg" | "conf" => "ini",
        "md" | "markdown" => "markdown",
        "rst" => "rst",
        "tex" => "latex",
        "proto" => "protobuf",
        "graphql" | "gql" => "graphql",
        "tf" | "hcl" => "hcl",
        "nix" => "nix",
        "diff" | "patch" => "diff",
        "txt" | "log" => "plaintext",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::detect_language;

    #[test]
    fn by_extension_and_by_name() {
        assert_eq!(detect_language("src/main.rs"), Some("rust"));
        assert_eq!(detect_language("C:\\x\\App.TSX"), Some("tsx"));
        assert_eq!(detect_language("docker/Dockerfile"), Some("dockerfile"));
        assert_eq!(detect_language("~/.bashrc"), Some("bash"));
        assert_eq!(detect_language(".gitignore"), None);
        assert_eq!(detect_language("README"), None);
        assert_eq!(detect_language("archive.tar.gz"), None);
    }
}
