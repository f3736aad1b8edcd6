//! Markdown render + sanitize of a ~1 MB deep-spec-like document, side by side with
//! pulldown-cmark alone on the same input, and with ammonia run over pulldown-cmark's whole
//! output (the approach DESIGN.md measured and rejected). Budget: <= 2x pulldown-cmark alone.
//!
//! On a busy machine criterion's figures for the two drift apart with the load of the moment, so
//! the ratio is also measured with the two runs interleaved (one of each, 60 times) and printed
//! first: the median of the per-pair ratios.

use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group};

#[path = "support/deep_spec.rs"]
mod support;
use support::deep_spec;

fn bench(c: &mut Criterion) {
    let md = deep_spec();
    let mut group = c.benchmark_group("markdown_1mb");
    group.throughput(Throughput::Bytes(md.len() as u64));
    group.sample_size(20);
    group.bench_function("pulldown_cmark_alone", |b| {
        b.iter(|| std::hint::black_box(specdesk_core::markdown::render_unsanitized(&md)))
    });
    group.bench_function("specdesk_render_sanitized", |b| {
        b.iter(|| std::hint::black_box(specdesk_core::markdown::render(&md)))
    });
    group.bench_function("pulldown_then_ammonia_whole_output", |b| {
        b.iter(|| {
            let html = specdesk_core::markdown::render_unsanitized(&md);
            std::hint::black_box(ammonia::clean(&html))
        })
    });
    group.finish();
}

/// Pulldown-cmark alone and `render` one after the other, 60 pairs: medians and the median ratio.
fn interleaved(md: &str) {
    let mut alone = Vec::new();
    let mut sanitized = Vec::new();
    for i in 0..65 {
        let t = Instant::now();
        std::hint::black_box(specdesk_core::markdown::render_unsanitized(md));
        let a = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        std::hint::black_box(specdesk_core::markdown::render(md));
        let b = t.elapsed().as_secs_f64() * 1e3;
        // The first pairs warm caches up.
        if i >= 5 {
            alone.push(a);
            sanitized.push(b);
        }
    }
    let mut ratios: Vec<f64> = alone.iter().zip(&sanitized).map(|(a, b)| b / a).collect();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "markdown_1mb interleaved ({} bytes, 60 pairs): pulldown-cmark alone median {:.1} ms, specdesk render median {:.1} ms, median ratio {:.2}x (budget <= 2x)",
        md.len(),
        median(&mut alone),
        median(&mut sanitized),
        median(&mut ratios)
    );
}

criterion_group!(benches, bench);

fn main() {
    interleaved(&deep_spec());
    benches();
    Criterion::default().configure_from_args().final_summary();
}
