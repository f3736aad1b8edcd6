//! Markdown to safe HTML: the tests.

use super::*;

fn html(md: &str) -> String {
    render(md).html
}

#[test]
fn renders_the_spec_features() {
    let out = html(
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n~~old~~ text[^1]\n\n[^1]: note\n",
    );
    assert!(out.contains("<table>"), "{out}");
    assert!(
        out.contains("<input disabled=\"\" type=\"checkbox\" checked=\"\"/>"),
        "{out}"
    );
    assert!(out.contains("<del>old</del>"), "{out}");
    assert!(out.contains("class=\"footnote-definition\""), "{out}");
}

#[test]
fn headings_get_unique_ids_and_a_table_of_contents() {
    let r =
        render("# Overview\n\n## Milestone 1: Setup & CI\n\n## Overview\n\n### Custom {#my-id}\n");
    assert_eq!(
        r.toc,
        vec![
            TocEntry {
                level: 1,
                text: "Overview".into(),
                id: "overview".into()
            },
            TocEntry {
                level: 2,
                text: "Milestone 1: Setup & CI".into(),
                id: "milestone-1-setup-ci".into()
            },
            TocEntry {
                level: 2,
                text: "Overview".into(),
                id: "overview-1".into()
            },
            TocEntry {
                level: 3,
                text: "Custom".into(),
                id: "my-id".into()
            },
        ]
    );
    assert!(
        r.html
            .contains("<h2 id=\"milestone-1-setup-ci\">Milestone 1: Setup &amp; CI</h2>"),
        "{}",
        r.html
    );
}

#[test]
fn code_keeps_its_language_class() {
    assert!(
        html("```rust\nfn main() {}\n```\n")
            .contains("<pre><code class=\"language-rust\">fn main() {}\n</code></pre>")
    );
}

#[test]
fn external_links_are_marked_and_internal_ones_are_not() {
    assert_eq!(
        html("[docs](https://example.com/a?b=\"c\") and [top](#overview)"),
        "<p><a href=\"https://example.com/a?b=&quot;c&quot;\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">docs</a> and <a href=\"#overview\">top</a></p>\n"
    );
}

/// XSS payloads in markdown and in raw HTML, with the exact output each gives.
const ATTACKS: &[(&str, &str)] = &[
    ("<script>alert(1)</script>", ""),
    ("<img src=x onerror=alert(1)>", "<img>"),
    ("[x](javascript:alert(1))", "<p>x</p>\n"),
    ("[x](JaVaScRiPt:alert(1))", "<p>x</p>\n"),
    ("[x](&#106;avascript:alert(1))", "<p>x</p>\n"),
    ("[a](<javascript:alert(1)>)", "<p>a</p>\n"),
    ("[x][r]\n\n[r]: javascript:alert(1)\n", "<p>x</p>\n"),
    (
        "[x](java\tscript:alert(1))",
        "<p>[x](java\tscript:alert(1))</p>\n",
    ),
    ("<javascript:alert(1)>", "<p>javascript:alert(1)</p>\n"),
    (
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "<p>x</p>\n",
    ),
    ("![x](javascript:alert(1))", "<p>x</p>\n"),
    (
        "![x](data:image/svg+xml,<svg onload=alert(1)>)",
        "<p>![x](data:image/svg+xml,)</p>\n",
    ),
    ("![x](data:image/svg+xml;base64,PHN2Zz4=)", "<p>x</p>\n"),
    ("![x](data:text/html,hi)", "<p>x</p>\n"),
    ("![rel](images/a.png)", "<p>rel</p>\n"),
    (
        "[![img](javascript:x)](https://example.com)",
        "<p><a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">img</a></p>\n",
    ),
    (
        "[x](https://example.com \"a\\\" onmouseover=\\\"alert(1)\")",
        "<p><a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\" title=\"a&quot; onmouseover=&quot;alert(1)\">x</a></p>\n",
    ),
    (
        "```\"><script>alert(1)</script>\ncode\n```\n",
        "<pre><code class=\"language-&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">code\n</code></pre>\n",
    ),
    (
        "# Title <img src=x onerror=alert(1)>",
        "<h1 id=\"title\">Title <img></h1>\n",
    ),
    (
        "<a href=\"javascript:alert(1)\">x</a>",
        "<p><a rel=\"noopener noreferrer\">x</a></p>\n",
    ),
    (
        "<a href=\"  javascript:alert(1)\">sp</a>",
        "<p><a rel=\"noopener noreferrer\">sp</a></p>\n",
    ),
    (
        "<a href=\"data:text/html,x\">d</a>",
        "<p><a rel=\"noopener noreferrer\">d</a></p>\n",
    ),
    ("<img src=\"data:image/png;base64,AAAA\">", "<img>"),
    (
        "<img src=\"https://example.com/a.png\" onerror=\"alert(1)\" alt=\"a\">",
        "<img src=\"https://example.com/a.png\" alt=\"a\">",
    ),
    ("<div onclick=\"alert(1)\">x</div>", "<div>x</div>"),
    (
        "see <a href=\"https://example.com\" onclick=\"x()\">site</a> now",
        "<p>see <a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">site</a> now</p>\n",
    ),
    (
        "<a href=\"https://example.com\" target=\"_self\">t</a>",
        "<p><a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">t</a></p>\n",
    ),
    ("<iframe src=\"https://evil.example\"></iframe>", ""),
    ("<svg><script>alert(1)</script></svg>", "<p>alert(1)</p>\n"),
    ("<style>body{display:none}</style>", ""),
    ("<form action=\"https://x\"><input name=a></form>", ""),
    (
        "<object data=\"x.swf\"></object><embed src=\"x\">",
        "<p></p>\n",
    ),
    (
        "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
        "<p>x</p>\n",
    ),
    ("<!-- <script>alert(1)</script> -->", ""),
    (
        "<p>ok</p><scr<script>ipt>alert(1)</script>",
        "<p>ok</p>ipt&gt;alert(1)",
    ),
    (
        "<div>x</div><script>y</script>\n\nafter\n",
        "<div>x</div>\n<p>after</p>\n",
    ),
];

#[test]
fn xss_payloads_give_exactly_the_safe_output() {
    for (md, expected) in ATTACKS {
        assert_eq!(&html(md), expected, "for {md:?}");
    }
}

#[test]
fn no_script_survives() {
    let attr = regex_lite_attrs();
    for (md, _) in ATTACKS {
        let out = html(md).to_lowercase();
        for bad in [
            "<script",
            "onerror=",
            "onclick=",
            "onload=",
            "onmouseover=\"",
            "<iframe",
            "<style",
            "<svg",
            "<form",
            "<object",
            "<embed",
            "=\"javascript",
            "=\"data:text",
        ] {
            assert!(!out.contains(bad), "{md:?} -> {out}");
        }
        // Every URL that made it into an attribute is one the rules allow.
        for (name, value) in attr(&out) {
            let ok = if name == "src" {
                safe_image(&value)
            } else {
                safe_link(&value)
            };
            assert!(ok, "{md:?} -> {name}={value:?} in {out}");
        }
    }
}

#[test]
fn raw_html_keeps_its_structure_around_markdown() {
    assert_eq!(
        html("<details><summary>S</summary>\n\nBody\n\n</details>\n"),
        "<details><summary>S</summary>\n<p>Body</p>\n</details>\n"
    );
    assert_eq!(
        html("<div><div>\n\ninside\n\n</div></div>\n"),
        "<div><div>\n<p>inside</p>\n</div></div>\n"
    );
    assert_eq!(
        html(
            "<div>\n<a href=\"https://example.com/x?a=1&b=2\">ext</a> <a href=\"#top\">top</a>\n</div>\n"
        ),
        "<div>\n<a href=\"https://example.com/x?a=1&amp;b=2\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">ext</a> <a href=\"#top\" rel=\"noopener noreferrer\">top</a>\n</div>\n"
    );
    assert_eq!(
        closing_tags_only("</script></DIV >\n").as_deref(),
        Some("</div>\n"),
        "only allowed closers"
    );
    assert_eq!(closing_tags_only("</div> text"), None);
    assert_eq!(closing_tags_only("<div>"), None);
}

#[test]
fn images_are_web_or_inline_raster_only() {
    assert_eq!(
        html("![ok](https://example.com/a.png \"t\")"),
        "<p><img src=\"https://example.com/a.png\" alt=\"ok\" title=\"t\" /></p>\n"
    );
    assert_eq!(
        html("![gif](data:image/gif;base64,R0lGOD==)"),
        "<p><img src=\"data:image/gif;base64,R0lGOD==\" alt=\"gif\" /></p>\n"
    );
    assert!(safe_image("data:image/webp,xyz"));
    assert!(!safe_image("data:image/pngx;base64,AA"));
    assert!(!safe_image("data:image/svg+xml,<svg/>"));
    assert!(!safe_image("/local.png"));
    assert!(!safe_image("file:///etc/passwd"));
    assert!(!safe_image("http://127.0.0.1:6379/x.png"));
    assert_eq!(
        html("![local](http://127.0.0.1:8080/x.png) <img src=\"http://localhost/y.png\">"),
        "<p>local <img></p>\n"
    );
}

#[test]
fn mail_links_are_kept_and_not_external() {
    assert_eq!(
        html("[m](mailto:a@b.c) <a@b.c> <https://example.com>"),
        "<p><a href=\"mailto:a@b.c\">m</a> <a href=\"mailto:a@b.c\">a@b.c</a> <a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">https://example.com</a></p>\n"
    );
}

/// (attribute, value) of every href/src in `html`, entities decoded as a browser would.
fn regex_lite_attrs() -> impl Fn(&str) -> Vec<(String, String)> {
    |html: &str| {
        let mut out = Vec::new();
        for name in ["href", "src"] {
            let needle = format!("{name}=\"");
            let mut rest = html;
            while let Some(i) = rest.find(&needle) {
                let after = &rest[i + needle.len()..];
                let end = after.find('"').unwrap_or(after.len());
                let value = after[..end]
                    .replace("&amp;", "&")
                    .replace("&#106;", "j")
                    .replace("&quot;", "\"");
                out.push((name.to_owned(), value));
                rest = &after[end..];
            }
        }
        out
    }
}

#[test]
fn refused_links_keep_their_text_and_safe_html_is_kept() {
    assert_eq!(html("[click me](javascript:alert(1))"), "<p>click me</p>\n");
    assert_eq!(html("![logo](javascript:x)"), "<p>logo</p>\n");
    assert_eq!(html("<kbd>Ctrl</kbd>"), "<p><kbd>Ctrl</kbd></p>\n");
    assert_eq!(
        html("<div class=\"note\">\n<b>Hi</b>\n</div>\n"),
        "<div>\n<b>Hi</b>\n</div>\n",
        "a raw HTML block keeps its safe elements (ammonia drops attributes it does not allow)"
    );
    assert!(
        html("![png](data:image/png;base64,iVBORw0KGgo=)")
            .contains("<img src=\"data:image/png;base64,iVBORw0KGgo=\"")
    );
}

#[test]
fn schemes_are_read_as_browsers_read_them() {
    assert_eq!(scheme(" JAVASCRIPT:x").as_deref(), Some("javascript"));
    assert_eq!(scheme("./a:b"), None);
    assert_eq!(scheme("#x:y"), None);
    assert_eq!(scheme("mailto:a@b.c").as_deref(), Some("mailto"));
}
