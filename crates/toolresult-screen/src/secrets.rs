//! Credentials (docs/screen.md §3). Token formats follow the public rule sets
//! of gitleaks (MIT), detect-secrets (Apache-2.0) and Nosey Parker
//! (Apache-2.0); the matchers are written here.

use alloc::vec::Vec;
use base64::Engine as _;

use super::{Found, Hit, Kw, ScreenCategory};

type Class = fn(u8) -> bool;

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn alnum_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}
fn alnum_under(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn alnum_dash_dot(b: u8) -> bool {
    alnum_dash(b) || b == b'.'
}
fn upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
fn hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
fn hex_dash(b: u8) -> bool {
    b.is_ascii_hexdigit() || b == b'-'
}
fn base64ish(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-')
}
fn slack_path(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'/'
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    None,
    /// GitHub's CRC32 in the last six base62 characters.
    GithubCrc,
    /// Random enough to be a key (generic shapes such as `sk-…`).
    Entropy,
    /// An account number, `_`, then a random key (`live_<id>_<key>` stream keys).
    NumberedKey,
}

/// A credential known by its prefix: `prefix` then `min..=max` bytes of `class`.
pub(crate) struct PrefixRule {
    pub prefix: &'static str,
    pub rule: &'static str,
    class: Class,
    min: usize,
    max: usize,
    check: Check,
}

const fn p(
    prefix: &'static str,
    rule: &'static str,
    class: Class,
    min: usize,
    max: usize,
    check: Check,
) -> PrefixRule {
    PrefixRule {
        prefix,
        rule,
        class,
        min,
        max,
        check,
    }
}

use Check::{Entropy, GithubCrc, None as Plain, NumberedKey};

/// Specific formats first: a generic shape (`sk-…`) yields to a specific one
/// at the same place.
pub(crate) static PREFIX_RULES: &[PrefixRule] = &[
    p("AKIA", "aws-access-key-id", upper_digit, 16, 16, Plain),
    p("ASIA", "aws-access-key-id", upper_digit, 16, 16, Plain),
    p("ABIA", "aws-access-key-id", upper_digit, 16, 16, Plain),
    p("ACCA", "aws-access-key-id", upper_digit, 16, 16, Plain),
    p("ghp_", "github-token", alnum, 36, 36, GithubCrc),
    p("gho_", "github-token", alnum, 36, 36, GithubCrc),
    p("ghu_", "github-token", alnum, 36, 36, GithubCrc),
    p("ghs_", "github-token", alnum, 36, 36, GithubCrc),
    p("ghr_", "github-token", alnum, 36, 36, GithubCrc),
    p(
        "github_pat_",
        "github-fine-grained-token",
        alnum_under,
        70,
        90,
        Entropy,
    ),
    p("glpat-", "gitlab-token", alnum_dash_dot, 20, 80, Entropy),
    p("glptt-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("gldt-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("glrt-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("glcbt-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("glsoat-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("gloas-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("glimt-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p("glffct-", "gitlab-token", alnum_dash, 20, 64, Entropy),
    p(
        "GR1348941",
        "gitlab-runner-token",
        alnum_dash,
        20,
        40,
        Entropy,
    ),
    p("xoxb-", "slack-token", alnum_dash, 20, 255, Plain),
    p("xoxp-", "slack-token", alnum_dash, 20, 255, Plain),
    p("xoxa-", "slack-token", alnum_dash, 20, 255, Plain),
    p("xoxr-", "slack-token", alnum_dash, 20, 255, Plain),
    p("xoxs-", "slack-token", alnum_dash, 20, 255, Plain),
    p("xoxe.xox", "slack-token", alnum_dash_dot, 20, 255, Plain),
    p("xoxe-", "slack-token", alnum_dash, 20, 255, Plain),
    p("xapp-", "slack-token", alnum_dash, 20, 255, Plain),
    p(
        "hooks.slack.com/services/",
        "slack-webhook-url",
        slack_path,
        20,
        100,
        Plain,
    ),
    p(
        "hooks.slack.com/workflows/",
        "slack-webhook-url",
        slack_path,
        20,
        100,
        Plain,
    ),
    p("sk_live_", "stripe-secret-key", alnum, 20, 255, Plain),
    p("rk_live_", "stripe-secret-key", alnum, 20, 255, Plain),
    p("sk_test_", "stripe-secret-key", alnum, 20, 255, Entropy),
    p("rk_test_", "stripe-secret-key", alnum, 20, 255, Entropy),
    p("whsec_", "stripe-webhook-secret", alnum, 24, 64, Entropy),
    p(
        "sk-ant-api03-",
        "anthropic-api-key",
        alnum_dash,
        32,
        300,
        Plain,
    ),
    p(
        "sk-ant-admin01-",
        "anthropic-api-key",
        alnum_dash,
        32,
        300,
        Plain,
    ),
    p(
        "sk-ant-oat01-",
        "anthropic-api-key",
        alnum_dash,
        32,
        300,
        Plain,
    ),
    p("sk-proj-", "openai-api-key", alnum_dash, 20, 300, Entropy),
    p(
        "sk-svcacct-",
        "openai-api-key",
        alnum_dash,
        20,
        300,
        Entropy,
    ),
    p("sk-admin-", "openai-api-key", alnum_dash, 20, 300, Entropy),
    p("sk-None-", "openai-api-key", alnum_dash, 20, 300, Entropy),
    p("sk-or-v1-", "openrouter-api-key", hex, 64, 64, Plain),
    p("sk-", "llm-api-key", alnum_dash, 32, 200, Entropy),
    p("hf_", "huggingface-token", alnum, 30, 40, Entropy),
    p("api_org_", "huggingface-token", alnum, 30, 40, Entropy),
    p("npm_", "npm-token", alnum, 36, 36, Entropy),
    p(
        "pypi-AgEIcHlwaS5vcmc",
        "pypi-token",
        alnum_dash,
        50,
        300,
        Plain,
    ),
    p(
        "pypi-AgENdGVzdC5weXBpLm9yZw",
        "pypi-token",
        alnum_dash,
        50,
        300,
        Plain,
    ),
    p("SG.", "sendgrid-api-key", alnum_dash_dot, 66, 66, Entropy),
    p("key-", "mailgun-api-key", hex, 32, 32, Entropy),
    p("AIza", "google-api-key", alnum_dash, 35, 35, Entropy),
    p(
        "GOCSPX-",
        "google-oauth-client-secret",
        alnum_dash,
        28,
        28,
        Plain,
    ),
    p(
        "ya29.",
        "google-oauth-access-token",
        alnum_dash_dot,
        30,
        2048,
        Entropy,
    ),
    p("dop_v1_", "digitalocean-token", hex, 64, 64, Plain),
    p("doo_v1_", "digitalocean-token", hex, 64, 64, Plain),
    p("dor_v1_", "digitalocean-token", hex, 64, 64, Plain),
    p("shpat_", "shopify-token", hex, 32, 32, Plain),
    p("shpca_", "shopify-token", hex, 32, 32, Plain),
    p("shppa_", "shopify-token", hex, 32, 32, Plain),
    p("shpss_", "shopify-token", hex, 32, 32, Plain),
    p("sq0atp-", "square-token", alnum_dash, 22, 60, Entropy),
    p("sq0csp-", "square-token", alnum_dash, 40, 60, Entropy),
    p("EAAA", "square-token", alnum_dash, 60, 60, Entropy),
    p("EAAC", "facebook-access-token", alnum, 90, 400, Entropy),
    p("EAAG", "facebook-access-token", alnum, 90, 400, Entropy),
    p("EAAB", "facebook-access-token", alnum, 90, 400, Entropy),
    p("NRAK-", "newrelic-key", upper_digit, 27, 27, Plain),
    p("NRII-", "newrelic-key", alnum_dash, 32, 32, Entropy),
    p("NRJS-", "newrelic-key", hex, 19, 19, Plain),
    p(
        "ATATT3",
        "atlassian-api-token",
        base64ish,
        150,
        260,
        Entropy,
    ),
    p("lin_api_", "linear-api-key", alnum, 40, 40, Entropy),
    p("ntn_", "notion-token", alnum, 40, 50, Entropy),
    p("secret_", "notion-token", alnum, 43, 43, Entropy),
    p("PMAK-", "postman-api-key", hex_dash, 59, 59, Plain),
    p("glc_", "grafana-token", base64ish, 32, 400, Entropy),
    p("glsa_", "grafana-token", alnum_under, 32, 50, Entropy),
    p("sntrys_", "sentry-token", base64ish, 60, 400, Entropy),
    p("sntryu_", "sentry-token", hex, 64, 64, Plain),
    p("dapi", "databricks-token", hex_dash, 32, 36, Entropy),
    p("dp.pt.", "doppler-token", alnum, 40, 44, Entropy),
    p("dp.st.", "doppler-token", alnum_dash_dot, 40, 80, Entropy),
    p("dp.sa.", "doppler-token", alnum, 40, 44, Entropy),
    p("dp.ct.", "doppler-token", alnum, 40, 44, Entropy),
    p("dp.audit.", "doppler-token", alnum, 40, 44, Entropy),
    p("dp.scim.", "doppler-token", alnum, 40, 44, Entropy),
    p("odt_", "dependency-track-api-key", alnum, 32, 40, Entropy),
    p("jina_", "jina-api-key", alnum, 56, 70, Entropy),
    p("NRAA-", "newrelic-key", hex, 27, 27, Entropy),
    p("NRIQ-", "newrelic-key", alnum_dash, 32, 32, Entropy),
    p("NRIK-", "newrelic-key", alnum_dash, 32, 32, Entropy),
    p("cio", "crates-io-token", alnum, 32, 32, Entropy),
    p("live_", "stream-key", alnum_under, 36, 60, NumberedKey),
    p(
        "outlook.office.com/webhook/",
        "teams-webhook-url",
        teams_path,
        60,
        300,
        Plain,
    ),
    p(
        "webhook.office.com/webhookb2/",
        "teams-webhook-url",
        teams_path,
        60,
        300,
        Plain,
    ),
    p("pul-", "pulumi-token", hex, 40, 40, Plain),
    p("hvs.", "vault-token", alnum_dash, 24, 400, Entropy),
    p("hvb.", "vault-token", alnum_dash, 24, 400, Entropy),
    p(
        "AGE-SECRET-KEY-1",
        "age-secret-key",
        upper_digit,
        58,
        58,
        Plain,
    ),
    p("dckr_pat_", "dockerhub-token", alnum_dash, 27, 27, Entropy),
    p("figd_", "figma-token", alnum_dash, 40, 50, Entropy),
    p("fo1_", "flyio-token", alnum_dash, 43, 43, Entropy),
    p("gsk_", "groq-api-key", alnum, 52, 52, Entropy),
    p("r8_", "replicate-token", alnum, 37, 40, Entropy),
    p("pplx-", "perplexity-api-key", alnum, 48, 48, Entropy),
    p("xai-", "xai-api-key", alnum, 70, 90, Entropy),
    p("nvapi-", "nvidia-api-key", alnum_dash, 64, 70, Entropy),
    p(
        "lsv2_pt_",
        "langsmith-api-key",
        alnum_under,
        40,
        60,
        Entropy,
    ),
    p(
        "lsv2_sk_",
        "langsmith-api-key",
        alnum_under,
        40,
        60,
        Entropy,
    ),
    p("LTAI", "alibaba-access-key", alnum, 20, 24, Entropy),
    p("AKID", "tencent-secret-id", alnum, 32, 36, Entropy),
    p("rubygems_", "rubygems-token", hex, 48, 48, Plain),
    p("oy2", "nuget-api-key", alnum, 43, 43, Entropy),
    p("xkeysib-", "brevo-api-key", alnum_dash, 81, 81, Plain),
    p("SK", "twilio-api-key", hex, 32, 32, Entropy),
    p("sl.", "dropbox-token", alnum_dash, 130, 160, Entropy),
    p("dt0c01.", "dynatrace-token", alnum_dash_dot, 89, 89, Plain),
    p(
        "ops_eyJ",
        "1password-service-token",
        base64ish,
        100,
        2000,
        Plain,
    ),
    p("sgp_", "sourcegraph-token", alnum_under, 40, 70, Entropy),
    p("nfp_", "netlify-token", alnum, 36, 40, Entropy),
    p(
        "FLWSECK-",
        "flutterwave-secret-key",
        alnum_dash,
        32,
        40,
        Entropy,
    ),
    p(
        "AccountKey=",
        "azure-storage-key",
        base64ish,
        40,
        100,
        Entropy,
    ),
    p(
        "SharedAccessKey=",
        "azure-shared-access-key",
        base64ish,
        40,
        50,
        Entropy,
    ),
    p(
        "discord.com/api/webhooks/",
        "discord-webhook-url",
        slack_path_dash,
        70,
        140,
        Plain,
    ),
    p(
        "discordapp.com/api/webhooks/",
        "discord-webhook-url",
        slack_path_dash,
        70,
        140,
        Plain,
    ),
    p(
        "PuTTY-User-Key-File-",
        "private-key",
        alnum_dash_colon,
        1,
        120,
        Plain,
    ),
];

fn teams_path(b: u8) -> bool {
    slack_path(b) || b == b'-' || b == b'@'
}
fn slack_path_dash(b: u8) -> bool {
    slack_path(b) || b == b'-' || b == b'_'
}
fn alnum_dash_colon(b: u8) -> bool {
    alnum_dash(b) || b == b':' || b == b' '
}

/// Words that can name a secret in `key = value`; the whole key is read around them.
pub(crate) static KEY_WORDS: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "credential",
    "auth",
    "sig",
    // `ADO_PAT`, `GITHUB_PAT`: a personal access token (not `path`).
    "_pat",
];

/// Formats found by a marker rather than a prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    PemBegin,
    Jwt,
    UrlAuthority,
    Bearer,
    Basic,
    AzureAdSecret,
    TelegramBot,
    MailchimpKey,
    AzureDevopsPat,
    NetworkCredential,
    /// A key marked by its suffix: New Relic license keys end in `NRAL`.
    NewRelicLicense,
    /// `curl -u user:password`, `--user user:password` on a command line.
    CliUserPassword,
}

pub(crate) static SPECIAL: &[(&str, Special)] = &[
    ("-----begin ", Special::PemBegin),
    ("eyJ", Special::Jwt),
    ("://", Special::UrlAuthority),
    ("bearer ", Special::Bearer),
    ("basic ", Special::Basic),
    ("Q~", Special::AzureAdSecret),
    (":AA", Special::TelegramBot),
    ("-us", Special::MailchimpKey),
    ("AZDO", Special::AzureDevopsPat),
    ("NetworkCredential(", Special::NetworkCredential),
    ("NRAL", Special::NewRelicLicense),
    (" -u ", Special::CliUserPassword),
    ("\n-u ", Special::CliUserPassword),
    ("--user ", Special::CliUserPassword),
    ("--user=", Special::CliUserPassword),
];

/// Keys whose values are digests by contract, never secrets (the result
/// document's `*_sha256`, npm `integrity`, …).
pub(crate) fn is_digest_key(key: &str) -> bool {
    let k = key.as_bytes();
    let ends =
        |s: &str| k.len() >= s.len() && k[k.len() - s.len()..].eq_ignore_ascii_case(s.as_bytes());
    ends("sha256")
        || ends("sha1")
        || ends("sha512")
        || ends("digest")
        || ends("integrity")
        || ends("checksum")
        || ends("hash")
}

fn before_ok(text: &[u8], at: usize) -> bool {
    at == 0 || !text[at - 1].is_ascii_alphanumeric() || super::text::escape_before(text, at)
}

fn run_end(text: &[u8], from: usize, class: Class, max: usize) -> usize {
    let mut i = from;
    while i < text.len() && i - from <= max && class(text[i]) {
        i += 1;
    }
    i
}

/// Shannon entropy in bits per byte.
pub(crate) fn entropy(bytes: &[u8]) -> f64 {
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[b as usize] += 1;
    }
    let n = bytes.len() as f64;
    let mut h = 0.0;
    for &c in counts.iter().filter(|&&c| c > 0) {
        let p = f64::from(c) / n;
        h -= p * log2(p);
    }
    h
}

/// log2 without std (no_std core): frexp-style split plus a short series.
fn log2(x: f64) -> f64 {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mantissa = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1023u64 << 52));
    // ln(m) for m in [1, 2) by atanh series: ln(m) = 2 atanh((m-1)/(m+1)).
    let y = (mantissa - 1.0) / (mantissa + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..12 {
        sum += term / k;
        term *= y2;
        k += 2.0;
    }
    exp as f64 + 2.0 * sum / core::f64::consts::LN_2
}

/// Placeholders and masks that documentation uses in place of a credential.
pub(crate) fn is_placeholder(value: &[u8]) -> bool {
    const MARKERS: &[&str] = &[
        "example",
        "your",
        "xxxx",
        "placeholder",
        "redacted",
        "changeme",
        "change_me",
        "dummy",
        "sample",
        "****",
        "<",
        ">",
        "${",
        "{{",
        "$(",
        "%(",
        "%s",
        "…",
        "...",
        "insert",
        "replace",
        "fake",
        "mock",
        "secret_here",
        "key_here",
        "token_here",
        "here",
        "abcdef",
        "123456",
        "0000000",
        "1111111",
        "aaaaaaa",
        "process.env",
        "os.environ",
    ];
    let lower: Vec<u8> = value.iter().map(u8::to_ascii_lowercase).collect();
    MARKERS.iter().any(|m| contains(&lower, m.as_bytes()))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    super::text::find_bytes(hay, needle).is_some()
}

fn classes(v: &[u8]) -> usize {
    let lower = usize::from(v.iter().any(u8::is_ascii_lowercase));
    let upper = usize::from(v.iter().any(u8::is_ascii_uppercase));
    let digit = usize::from(v.iter().any(u8::is_ascii_digit));
    let other = usize::from(v.iter().any(|b| !b.is_ascii_alphanumeric()));
    lower + upper + digit + other
}

/// Random enough to be a generated key, not a word or an identifier.
fn random_enough(v: &[u8]) -> bool {
    v.len() >= 16 && classes(v) >= 2 && entropy(v) >= 3.2
}

fn github_crc_ok(body: &[u8]) -> bool {
    const B62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    if body.len() != 36 {
        return false;
    }
    let mut crc = u64::from(crc32fast::hash(&body[..30]));
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = B62[(crc % 62) as usize];
        crc /= 62;
    }
    out == body[30..]
}

/// Secrets in one string (byte offsets), from the keyword hits of the shared pass.
pub(crate) fn scan_found(s: &str, found: &[Found], hits: &mut Vec<Hit>) {
    let text = s.as_bytes();
    let first = hits.len();
    let mut last_key_start = usize::MAX;
    for f in found {
        match f.kw {
            Kw::SecretPrefix(i) => {
                let rule = &PREFIX_RULES[i as usize];
                if &text[f.start..f.end] != rule.prefix.as_bytes() || !before_ok(text, f.start) {
                    continue;
                }
                if rule.check == Entropy
                    && hits[first..]
                        .iter()
                        .any(|h| h.start <= f.start && f.end <= h.end)
                {
                    continue;
                }
                let end = run_end(text, f.end, rule.class, rule.max);
                let body = &text[f.end..end];
                if body.len() < rule.min || body.len() > rule.max {
                    continue;
                }
                let ok = match rule.check {
                    Plain => !is_placeholder(body),
                    GithubCrc => github_crc_ok(body),
                    NumberedKey => {
                        let digits = body.iter().take_while(|b| b.is_ascii_digit()).count();
                        let key = body.get(digits + 1..).unwrap_or_default();
                        digits >= 5
                            && body.get(digits) == Some(&b'_')
                            && key.len() >= 28
                            && key.iter().all(u8::is_ascii_alphanumeric)
                            && random_enough(key)
                    }
                    Entropy => {
                        body.len() >= 8
                            && classes(body) >= 2
                            && entropy(body) >= 3.0
                            && !is_placeholder(body)
                    }
                };
                if ok {
                    push(hits, rule.rule, f.start, end);
                }
            }
            Kw::SecretWord => {
                let start = ident_start(text, f.start);
                if start == last_key_start {
                    continue;
                }
                last_key_start = start;
                assignment(text, start, hits);
            }
            Kw::SecretSpecial(special) => special_at(text, f, special, hits),
            _ => {}
        }
    }
}

fn push(hits: &mut Vec<Hit>, rule: &'static str, start: usize, end: usize) {
    hits.push(Hit {
        category: ScreenCategory::Secret,
        rule,
        start,
        end,
    });
}

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

fn ident_start(text: &[u8], mut i: usize) -> usize {
    while i > 0 && ident_byte(text[i - 1]) {
        i -= 1;
    }
    i
}

/// The words of an identifier: `AWS_SECRET_ACCESS_KEY`, `openaiApiKey`,
/// `x-api-key`, `spring.datasource.password`.
fn key_words(key: &[u8]) -> Vec<&[u8]> {
    // Slices of the key (compared ignoring ASCII case): no allocation per word.
    let mut words: Vec<&[u8]> = Vec::new();
    let mut start = None::<usize>;
    let mut prev_lower = false;
    for (i, &b) in key.iter().enumerate() {
        if !b.is_ascii_alphanumeric() {
            if let Some(s) = start.take() {
                words.push(&key[s..i]);
            }
            prev_lower = false;
            continue;
        }
        if b.is_ascii_uppercase() && prev_lower {
            if let Some(s) = start.take() {
                words.push(&key[s..i]);
            }
        }
        start.get_or_insert(i);
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
    }
    if let Some(s) = start {
        words.push(&key[s..]);
    }
    words
}

fn word_is(w: &[u8], name: &str) -> bool {
    w.eq_ignore_ascii_case(name.as_bytes())
}

/// How strongly a key name says its value is a credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyKind {
    Password,
    Token,
}

fn classify_key(key: &[u8]) -> Option<KeyKind> {
    // Sorted (binary search over lowercased words).
    const NOT: &[&str] = &[
        "alg",
        "algorithm",
        "arn",
        "audience",
        "author",
        "authored",
        "authors",
        "budget",
        "bypass",
        "cache",
        "checksum",
        "compass",
        "completion",
        "confirm",
        "confirmation",
        "continuation",
        "count",
        "counts",
        "created",
        "cursor",
        "description",
        "digest",
        "email",
        "enabled",
        "endpoint",
        "env",
        "error",
        "estimate",
        "expiration",
        "expires",
        "expiry",
        "field",
        "file",
        "fingerprint",
        "foreign",
        "forgot",
        "form",
        "format",
        "hash",
        "header",
        "hint",
        "host",
        "hotkey",
        "id",
        "idempotency",
        "ids",
        "input",
        "integrity",
        "issuer",
        "keyboard",
        "keys",
        "keyword",
        "keywords",
        "kind",
        "label",
        "last",
        "len",
        "length",
        "lifetime",
        "limit",
        "location",
        "manager",
        "max",
        "md5",
        "message",
        "method",
        "min",
        "mode",
        "monkey",
        "name",
        "new",
        "next",
        "oauth2",
        "old",
        "output",
        "page",
        "param",
        "partition",
        "passed",
        "passenger",
        "passing",
        "passport",
        "path",
        "pattern",
        "placeholder",
        "policy",
        "prefix",
        "primary",
        "prompt",
        "provider",
        "pub",
        "public",
        "publishable",
        "ref",
        "regex",
        "required",
        "reset",
        "rotation",
        "rules",
        "scope",
        "scopes",
        "sha",
        "sha1",
        "sha256",
        "sha512",
        "sigma",
        "sign",
        "signal",
        "signature",
        "signed",
        "size",
        "sort",
        "store",
        "strategy",
        "strength",
        "suffix",
        "tokens",
        "total",
        "ttl",
        "turkey",
        "type",
        "updated",
        "uri",
        "url",
        "usage",
        "user",
        "username",
        "validity",
        "var",
        "version",
        "window",
    ];
    let words = key_words(key);
    // The cheap test first: most identifiers around a keyword hit ("keyboard",
    // "passed") name no secret at all; only those that do meet the long list.
    const NAMES: &[&str] = &[
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "secret",
        "secrets",
        "token",
        "apikey",
        "credential",
        "credentials",
        "auth",
        "authorization",
        "bearer",
        "privatekey",
        "accesskey",
        "secretkey",
        "sig",
        "key",
        "pat",
    ];
    if !words.iter().any(|w| NAMES.iter().any(|n| word_is(w, n))) {
        return None;
    }
    let excluded = |w: &[u8]| {
        let mut buf = [0u8; 32];
        if w.len() > buf.len() {
            return false;
        }
        for (d, s) in buf.iter_mut().zip(w) {
            *d = s.to_ascii_lowercase();
        }
        let lower = core::str::from_utf8(&buf[..w.len()]).unwrap_or("");
        NOT.binary_search(&lower).is_ok()
    };
    if words.iter().any(|w| excluded(w)) {
        return None;
    }
    let has = |s: &str| words.iter().any(|w| word_is(w, s));
    if has("password") || has("passwd") || has("pwd") || has("pass") || has("passphrase") {
        return Some(KeyKind::Password);
    }
    if has("secret")
        || has("secrets")
        || has("token")
        || has("apikey")
        || has("credential")
        || has("credentials")
        || has("auth")
        || has("authorization")
        || has("bearer")
        || has("privatekey")
        || has("accesskey")
        || has("secretkey")
        || has("sig")
        || has("pat")
    {
        return Some(KeyKind::Token);
    }
    if let Some(i) = words.iter().position(|w| word_is(w, "key")) {
        const QUALIFIERS: &[&str] = &[
            "api",
            "access",
            "secret",
            "private",
            "signing",
            "encryption",
            "master",
            "app",
            "account",
            "service",
            "auth",
            "client",
            "shared",
            "deploy",
            "admin",
            "subscription",
            "webhook",
            "write",
            "session",
            "storage",
            "consumer",
            "license",
            "root",
            "encrypt",
            "hmac",
            "jwt",
            "aes",
            "x",
            "openai",
            "anthropic",
            "stripe",
            "sendgrid",
            "mailgun",
            "google",
            "azure",
            "aws",
            "cohere",
            "mistral",
            "gemini",
            "groq",
            "cloudflare",
            "datadog",
            "dd",
            "algolia",
            "pinecone",
            "search",
            "maps",
            "captcha",
            "recaptcha",
            "license",
            "product",
            "serial",
            "ingest",
            "management",
            "admin",
            "rest",
            "live",
            "prod",
            "test",
        ];
        if words.len() == 1 || (i > 0 && QUALIFIERS.iter().any(|q| word_is(words[i - 1], q))) {
            return Some(KeyKind::Token);
        }
        if i > 0 && words.len() == 2 {
            // `openaiKey`, `STRIPE_KEY`: a vendor name and "key".
            return Some(KeyKind::Token);
        }
    }
    None
}

/// A key that names a credential outright (`HEROKU_API_KEY`,
/// `X-Postmark-Server-Token`, `db_password`), not just a key of some kind:
/// then even a UUID-shaped value is one (several services issue UUIDs as
/// API keys), while `token_id` or `cache_key` stay ids.
fn names_credential(key: &[u8]) -> bool {
    let words = key_words(key);
    let has = |s: &str| words.iter().any(|w| word_is(w, s));
    has("token")
        || has("secret")
        || has("password")
        || has("passwd")
        || has("apikey")
        || has("credential")
        || has("credentials")
        || words
            .windows(2)
            .any(|p| word_is(p[0], "api") && word_is(p[1], "key"))
}

/// `key = value` / `key: value` / `"key": "value"` at an identifier.
fn assignment(text: &[u8], key_start: usize, hits: &mut Vec<Hit>) {
    let mut i = key_start;
    while i < text.len() && ident_byte(text[i]) {
        i += 1;
    }
    let key = &text[key_start..i];
    let Some(kind) = classify_key(key) else {
        return;
    };
    // The key may be quoted: `"password": …`, `'token' => …`, `\"apiKey\":` (JSON in a string).
    if i + 1 < text.len() && text[i] == b'\\' && text[i + 1] == b'"' {
        i += 2;
    } else if i < text.len() && matches!(text[i], b'"' | b'\'' | b'`') {
        i += 1;
    }
    while i < text.len() && matches!(text[i], b' ' | b'\t') {
        i += 1;
    }
    if i >= text.len() {
        return;
    }
    let flag = key.first() == Some(&b'-') || key_start > 0 && text[key_start - 1] == b'-';
    if i > key_start + key.len()
        && (matches!(key, b"password" | b"passwd") || flag)
        && text[i].is_ascii_alphanumeric()
    {
        // netrc: `password <value>` (whitespace only), so the value must look generated.
        let start = i;
        while i < text.len() && !text[i].is_ascii_whitespace() && i - start <= 256 {
            i += 1;
        }
        if random_enough(&text[start..i]) && !is_placeholder(&text[start..i]) {
            push(hits, "secret-assignment", start, i);
        }
        return;
    }
    match text[i] {
        b'=' => {
            i += 1;
            if i < text.len() && (text[i] == b'=' || text[i] == b'~') {
                return; // a comparison, not an assignment
            }
            if i < text.len() && text[i] == b'>' {
                i += 1;
            }
        }
        b':' => {
            i += 1;
            if text[i..].starts_with(b"//") {
                return;
            }
            if i < text.len() && text[i] == b'=' {
                i += 1;
            }
        }
        _ => return,
    }
    while i < text.len() && matches!(text[i], b' ' | b'\t') {
        i += 1;
    }
    // An escaped quote (`\"value\"`) opens and closes the value as a quote does.
    let escaped = text.get(i) == Some(&b'\\') && text.get(i + 1) == Some(&b'"');
    if escaped {
        i += 1;
    }
    let quote = match text.get(i) {
        Some(&q @ (b'"' | b'\'' | b'`')) => {
            i += 1;
            Some(q)
        }
        _ => None,
    };
    let start = skip_auth_scheme(text, i);
    i = start;
    let stop = |b: u8| match quote {
        Some(q) => b == q || b == b'\n' || b == b'\r' || b == b' ' || (escaped && b == b'\\'),
        None => matches!(
            b,
            b' ' | b'\t'
                | b'\n'
                | b'\r'
                | b','
                | b';'
                | b'&'
                | b'}'
                | b']'
                | b')'
                | b'"'
                | b'\''
                | b'<'
        ),
    };
    while i < text.len() && i - start <= 512 && !stop(text[i]) {
        i += 1;
    }
    if i - start > 512 {
        return;
    }
    let value = &text[start..i];
    if let Some(q) = quote {
        let closed = if escaped {
            text.get(i) == Some(&b'\\') && text.get(i + 1) == Some(&q)
        } else {
            text.get(i) == Some(&q)
        };
        if !closed {
            return;
        }
    }
    if value_is_secret(value, kind, names_credential(key)) {
        push(hits, "secret-assignment", start, i);
    }
}

/// Past an `Authorization` scheme word (`Bearer `, `Token `, `Basic `) at `i`.
fn skip_auth_scheme(text: &[u8], i: usize) -> usize {
    for scheme in [&b"bearer "[..], b"token ", b"basic "] {
        if text
            .get(i..i + scheme.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(scheme))
        {
            return i + scheme.len();
        }
    }
    i
}

/// The value of a JSON member whose key names a secret.
pub(crate) fn scan_member_value(key: &str, value: &str, hits: &mut Vec<Hit>) {
    let Some(kind) = classify_key(key.as_bytes()) else {
        return;
    };
    let v = value.as_bytes();
    let start = skip_auth_scheme(v, v.iter().take_while(|b| b.is_ascii_whitespace()).count());
    let end = v.len()
        - v.iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
    if start >= end || v[start..end].iter().any(u8::is_ascii_whitespace) {
        return;
    }
    if value_is_secret(&v[start..end], kind, names_credential(key.as_bytes()))
        && !hits.iter().any(|h| h.start <= start && end <= h.end)
    {
        push(hits, "secret-assignment", start, end);
    }
}

fn looks_like_uuid(v: &[u8]) -> bool {
    v.len() == 36
        && v.iter().enumerate().all(|(i, &b)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        })
}

fn value_is_secret(value: &[u8], kind: KeyKind, uuid_ok: bool) -> bool {
    if value.is_empty() {
        return false;
    }
    if looks_like_uuid(value) {
        return uuid_ok;
    }
    // A GitHub-token shape whose checksum fails is not a GitHub token.
    if value.len() == 40
        && value.starts_with(b"gh")
        && value[3] == b'_'
        && matches!(value[2], b'p' | b'o' | b'u' | b's' | b'r')
    {
        return github_crc_ok(&value[4..]);
    }
    if !(value[0].is_ascii_alphanumeric() || matches!(value[0], b'+' | b'*' | b'&' | b'^' | b'_'))
        || value.iter().filter(|&&b| b == b'/').count() >= 2 && entropy(value) < 4.2
        || value.ends_with(b":")
        || value.iter().all(u8::is_ascii_digit)
        || value.contains(&b' ')
    {
        return false;
    }
    let lower: Vec<u8> = value.iter().map(u8::to_ascii_lowercase).collect();
    const NOT_VALUES: &[&str] = &[
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "required",
        "optional",
        "string",
        "bearer",
    ];
    if NOT_VALUES.iter().any(|n| lower == n.as_bytes())
        || lower.starts_with(b"http")
        || lower.starts_with(b"arn:")
    {
        return false;
    }
    let shaped = match kind {
        KeyKind::Password => {
            // A password has a letter and a digit or symbol; `env.DB_PASSWORD`
            // and `update_password` are names, not passwords.
            let letters = value.iter().any(u8::is_ascii_alphabetic);
            let marks = value.iter().any(|&b| {
                b.is_ascii_digit()
                    || !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
            });
            value.len() >= 8 && letters && marks && classes(value) >= 2 && entropy(value) >= 2.5
        }
        KeyKind::Token => random_enough(value),
    };
    // Placeholders last: the shape test above rejects most values cheaply.
    shaped && !is_placeholder(value)
}

fn special_at(text: &[u8], f: &Found, special: Special, hits: &mut Vec<Hit>) {
    match special {
        Special::PemBegin => pem(text, f, hits),
        Special::Jwt => {
            if &text[f.start..f.end] == b"eyJ" && before_ok_b64(text, f.start) {
                jwt(text, f.start, hits);
            }
        }
        Special::UrlAuthority => url_password(text, f, hits),
        Special::Bearer | Special::Basic => {
            let end = run_end(text, f.end, base64ish_dot, 4096);
            let token = &text[f.end..end];
            if !before_ok(text, f.start)
                || token.len() < 16
                || hits.iter().any(|h| h.start <= f.end && f.end < h.end)
            {
                return;
            }
            let ok = if special == Special::Basic {
                base64::engine::general_purpose::STANDARD
                    .decode(token)
                    .ok()
                    .and_then(|d| {
                        d.iter()
                            .position(|&b| b == b':')
                            .map(|p| d.len() > p + 1 && p > 0 && !is_placeholder(&d))
                    })
                    .unwrap_or(false)
            } else {
                random_enough(token) && !is_placeholder(token)
            };
            if ok {
                push(hits, "authorization-header", f.end, end);
            }
        }
        Special::AzureAdSecret => {
            // [A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}
            let cls = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'~' | b'.' | b'-');
            if f.start < 4 || !text[f.start - 1].is_ascii_digit() || &text[f.start..f.end] != b"Q~"
            {
                return;
            }
            let start = f.start - 4;
            if !text[start..f.start - 1].iter().all(|&b| cls(b)) || !before_ok(text, start) {
                return;
            }
            let end = run_end(text, f.end, cls, 40);
            if (31..=34).contains(&(end - f.end)) {
                push(hits, "azure-ad-client-secret", start, end);
            }
        }
        Special::TelegramBot => {
            let mut start = f.start;
            while start > 0 && text[start - 1].is_ascii_digit() {
                start -= 1;
            }
            let digits = f.start - start;
            if !(8..=10).contains(&digits)
                || !before_ok(text, start)
                || &text[f.start..f.end] != b":AA"
            {
                return;
            }
            let end = run_end(text, f.end, alnum_dash, 40);
            // Bot tokens are 35 characters after the colon; published ones
            // vary by a character or two, so the body must also look random.
            if (30..=36).contains(&(end - f.end)) && random_enough(&text[f.end..end]) {
                push(hits, "telegram-bot-token", start, end);
            }
        }
        Special::NewRelicLicense => {
            // 36 lowercase letters and digits, then `NRAL`.
            if f.start < 36 || &text[f.start..f.end] != b"NRAL" {
                return;
            }
            let start = f.start - 36;
            let body = &text[start..f.start];
            if body
                .iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && before_ok(text, start)
                && text.get(f.end).is_none_or(|b| !b.is_ascii_alphanumeric())
                && random_enough(body)
            {
                push(hits, "newrelic-key", start, f.end);
            }
        }
        Special::CliUserPassword => {
            // `user:password` up to the next blank; the password must look generated.
            let end = text[f.end..]
                .iter()
                .position(|b| b.is_ascii_whitespace() || matches!(b, b'"' | b'\''))
                .map_or(text.len(), |p| f.end + p);
            let cred = &text[f.end..end];
            if let Some(colon) = cred.iter().rposition(|&b| b == b':') {
                let password = &cred[colon + 1..];
                if colon > 0 && random_enough(password) && !is_placeholder(password) {
                    push(hits, "basic-auth-credentials", f.end + colon + 1, end);
                }
            }
        }
        Special::AzureDevopsPat => {
            // 84 characters with `AZDO` at 76.
            if f.start < 76 || &text[f.start..f.end] != b"AZDO" {
                return;
            }
            let start = f.start - 76;
            let end = f.end + 4;
            if end <= text.len()
                && text[start..end].iter().all(u8::is_ascii_alphanumeric)
                && before_ok(text, start)
                && text.get(end).is_none_or(|b| !b.is_ascii_alphanumeric())
                && random_enough(&text[start..f.start])
            {
                push(hits, "azure-devops-pat", start, end);
            }
        }
        Special::NetworkCredential => {
            // NetworkCredential("user", "password"): the second string.
            let rest = &text[f.end..(f.end + 300).min(text.len())];
            let quotes: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'"')
                .map(|(i, _)| i)
                .take(4)
                .collect();
            if quotes.len() == 4
                && rest[quotes[1] + 1..quotes[2]]
                    .iter()
                    .all(|&b| b == b' ' || b == b',')
            {
                let value = &rest[quotes[2] + 1..quotes[3]];
                if value_is_secret(value, KeyKind::Password, false)
                    || random_enough(value) && !is_placeholder(value)
                {
                    push(
                        hits,
                        "secret-assignment",
                        f.end + quotes[2] + 1,
                        f.end + quotes[3],
                    );
                }
            }
        }
        Special::MailchimpKey => {
            if f.start < 32 || &text[f.start..f.end] != b"-us" {
                return;
            }
            let start = f.start - 32;
            let body = &text[start..f.start];
            let end = run_end(text, f.end, |b| b.is_ascii_digit(), 2);
            if (1..=2).contains(&(end - f.end))
                && body
                    .iter()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                && before_ok(text, start)
                && random_enough(body)
                && end < text.len() + 1
                && text.get(end).is_none_or(|b| !b.is_ascii_alphanumeric())
            {
                push(hits, "mailchimp-api-key", start, end);
            }
        }
    }
}

fn base64ish_dot(b: u8) -> bool {
    base64ish(b) || b == b'.' || b == b'~'
}

fn before_ok_b64(text: &[u8], at: usize) -> bool {
    at == 0
        || super::text::escape_before(text, at)
        || !(text[at - 1].is_ascii_alphanumeric()
            || matches!(text[at - 1], b'_' | b'-' | b'+' | b'/'))
}

fn b64url_decode(seg: &[u8]) -> Option<Vec<u8>> {
    let trimmed: &[u8] = match seg.iter().position(|&b| b == b'=') {
        Some(p) => &seg[..p],
        None => seg,
    };
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(trimmed)
        .ok()
}

/// A JWT whose header and payload decode to JSON objects, the header with `alg`.
fn jwt(text: &[u8], start: usize, hits: &mut Vec<Hit>) {
    let seg = |from: usize| {
        run_end(
            text,
            from,
            |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'='),
            8192,
        )
    };
    let h_end = seg(start);
    if h_end >= text.len() || text[h_end] != b'.' || h_end - start < 10 {
        return;
    }
    let p_end = seg(h_end + 1);
    if p_end - (h_end + 1) < 4 {
        return;
    }
    if p_end >= text.len() || text[p_end] != b'.' {
        return;
    }
    let end = seg(p_end + 1);
    let header = b64url_decode(&text[start..h_end]);
    let payload = b64url_decode(&text[h_end + 1..p_end]);
    let is_object = |b: &Option<Vec<u8>>| {
        b.as_deref()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(b).ok())
            .filter(serde_json::Value::is_object)
    };
    if let (Some(h), Some(_)) = (is_object(&header), is_object(&payload)) {
        if h.get("alg").is_some()
            && (end > p_end + 1 || h.get("alg").and_then(|a| a.as_str()) == Some("none"))
        {
            push(hits, "jwt", start, end);
        }
    }
}

/// `-----BEGIN … PRIVATE KEY-----` with a body.
fn pem(text: &[u8], f: &Found, hits: &mut Vec<Hit>) {
    let line_end = text[f.end..]
        .iter()
        .take(80)
        .position(|&b| b == b'\n' || b == b'\\')
        .map_or(f.end, |p| f.end + p);
    let header = &text[f.start..line_end.min(text.len())];
    let upper: Vec<u8> = header.iter().map(u8::to_ascii_uppercase).collect();
    if !contains(&upper, b"PRIVATE KEY")
        || !upper.ends_with(b"-----") && !contains(&upper, b"PRIVATE KEY-----")
    {
        return;
    }
    let Some(close) = contains_at(&text[f.end..], b"-----", 80) else {
        return;
    };
    let body_start = f.end + close + 5;
    let mut i = body_start;
    let mut body = 0;
    let mut end = i;
    // A key body is a few KB: stop at 64 KB, and at the first `-----` (its
    // END line, or the next block's header), so many headers stay linear.
    while i < text.len() && i - body_start < 64 * 1024 {
        let b = text[i];
        if b == b'-' && text[i..].starts_with(b"-----") {
            if text[i..].starts_with(b"-----END") {
                end = contains_at(&text[i + 8..], b"-----", 80).map_or(i + 8, |p| i + 8 + p + 5);
            }
            break;
        }
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' {
            body += 1;
        }
        i += 1;
        end = i;
    }
    if body >= 40 {
        let sample = &text[f.end + close + 5..end.min(f.end + close + 5 + 400)];
        if !is_placeholder_pem(sample) {
            push(hits, "private-key", f.start, end);
        }
    }
}

fn is_placeholder_pem(body: &[u8]) -> bool {
    let lower: Vec<u8> = body.iter().map(u8::to_ascii_lowercase).collect();
    contains(&lower, b"...")
        || contains(&lower, b"example")
        || contains(&lower, b"xxxxxxxx")
        || contains(&lower, b"<")
}

fn contains_at(hay: &[u8], needle: &[u8], within: usize) -> Option<usize> {
    super::text::find_bytes(&hay[..hay.len().min(within + needle.len())], needle)
}

/// `scheme://user:password@host`: the password.
fn url_password(text: &[u8], f: &Found, hits: &mut Vec<Hit>) {
    let mut scheme_start = f.start;
    while scheme_start > 0
        && (text[scheme_start - 1].is_ascii_alphanumeric()
            || matches!(text[scheme_start - 1], b'+' | b'.' | b'-'))
    {
        scheme_start -= 1;
    }
    if scheme_start == f.start {
        return;
    }
    let auth_start = f.end;
    let mut i = auth_start;
    let mut at = None;
    let mut colon = None;
    while i < text.len() && i - auth_start < 512 {
        match text[i] {
            b'/' | b'?' | b'#' | b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'`' | b'<'
            | b'>' => break,
            b'@' => at = Some(i),
            b':' if colon.is_none() => colon = Some(i),
            _ => {}
        }
        i += 1;
    }
    let (Some(at), Some(colon)) = (at, colon) else {
        return;
    };
    if colon > at || colon == auth_start {
        return;
    }
    let password = &text[colon + 1..at];
    let lower: Vec<u8> = password.iter().map(u8::to_ascii_lowercase).collect();
    const NOT: &[&str] = &[
        "password",
        "pass",
        "passwd",
        "pwd",
        "secret",
        "token",
        "x-oauth-basic",
        "changeme",
        "xxx",
    ];
    if password.is_empty()
        || is_placeholder(password)
        || NOT.iter().any(|n| lower == n.as_bytes())
        || password
            .iter()
            .all(|&b| b == b'*' || b == b'x' || b == b'X')
        || password.starts_with(b":")
        || password.starts_with(b"$")
    {
        return;
    }
    push(hits, "url-password", colon + 1, at);
}
