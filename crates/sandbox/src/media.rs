//! Real media the sandbox produces: PNG (png crate), WAV with a LIST/INFO/ICMT text chunk, raw
//! PCM16, silent MPEG-1 Layer III (hand-framed), H.264 in MP4 (less-avc + mp4 crates), ZIP (zip
//! crate, stored), and text extraction from uploaded PDFs (flate2).

use crate::util::seed;
use axum::Router;

/// Media has no routes of its own (files are served by the area that owns them).
pub fn routes() -> Router<crate::state::App> {
    Router::new()
}

/// Encodes an RGB8 image as PNG.
pub fn png_rgb(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        if let Ok(mut w) = enc.write_header() {
            let _ = w.write_image_data(rgb);
        }
    }
    out
}

/// A simple RGB canvas.
pub struct Canvas {
    pub w: u32,
    pub h: u32,
    pub px: Vec<u8>,
}

impl Canvas {
    pub fn new(w: u32, h: u32, bg: [u8; 3]) -> Self {
        let mut px = Vec::with_capacity((w * h * 3) as usize);
        for _ in 0..w * h {
            px.extend_from_slice(&bg);
        }
        Canvas { w, h, px }
    }

    pub fn set(&mut self, x: i64, y: i64, c: [u8; 3]) {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 {
            return;
        }
        let i = ((y as u32 * self.w + x as u32) * 3) as usize;
        self.px[i..i + 3].copy_from_slice(&c);
    }

    pub fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    pub fn line(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, c: [u8; 3]) {
        let (mut x, mut y) = (x0, y0);
        let dx = (x1 - x0).abs();
        let dy = -(y1 - y0).abs();
        let sx = if x0 < x1 { 1 } else { -1 };
        let sy = if y0 < y1 { 1 } else { -1 };
        let mut err = dx + dy;
        loop {
            self.set(x, y, c);
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    pub fn png(&self) -> Vec<u8> {
        png_rgb(self.w, self.h, &self.px)
    }
}

/// A color picked from a seed.
pub fn color(s: u64) -> [u8; 3] {
    [
        64 + (s & 0x7f) as u8,
        64 + ((s >> 8) & 0x7f) as u8,
        64 + ((s >> 16) & 0x7f) as u8,
    ]
}

/// The architecture infographic: one box per graph node (color by type), lines for edges.
pub fn architecture_png(graph: &specdesk_types::Graph) -> Vec<u8> {
    let cols = 4i64;
    let bw = 180i64;
    let bh = 60i64;
    let gap = 30i64;
    let rows = (graph.nodes.len().div_ceil(cols as usize) as i64).max(1);
    let w = (cols * (bw + gap) + gap) as u32;
    let h = (rows * (bh + gap) + gap + 40) as u32;
    let mut c = Canvas::new(w, h, [250, 250, 252]);
    c.rect(0, 0, w as i64, 30, [40, 52, 80]);
    let pos = |i: usize| -> (i64, i64) {
        let i = i as i64;
        (
            gap + (i % cols) * (bw + gap),
            40 + gap + (i / cols) * (bh + gap),
        )
    };
    for e in &graph.edges {
        let a = graph.nodes.iter().position(|n| n.id == e.source);
        let b = graph.nodes.iter().position(|n| n.id == e.target);
        if let (Some(a), Some(b)) = (a, b) {
            let (x0, y0) = pos(a);
            let (x1, y1) = pos(b);
            c.line(
                x0 + bw / 2,
                y0 + bh / 2,
                x1 + bw / 2,
                y1 + bh / 2,
                [170, 170, 190],
            );
        }
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        let (x, y) = pos(i);
        let col = color(seed(n.node_type.as_deref().unwrap_or("node")));
        c.rect(x, y, bw, bh, col);
        c.rect(x + 3, y + 3, bw - 6, bh - 6, [255, 255, 255]);
        let label_len = n.label.as_deref().unwrap_or(&n.id).chars().count() as i64;
        c.rect(x + 10, y + 24, (label_len * 6).min(bw - 20), 8, col);
    }
    c.png()
}

/// A deterministic picture for an image prompt.
pub fn prompt_png(prompt: &str, index: u32, w: u32, h: u32) -> Vec<u8> {
    let s = seed(&format!("{prompt}\n{index}"));
    let a = color(s);
    let b = color(s >> 24);
    let mut c = Canvas::new(w, h, a);
    for y in 0..h {
        for x in 0..w {
            let t = (x + y) as f64 / (w + h) as f64;
            let px = [
                (a[0] as f64 * (1.0 - t) + b[0] as f64 * t) as u8,
                (a[1] as f64 * (1.0 - t) + b[1] as f64 * t) as u8,
                (a[2] as f64 * (1.0 - t) + b[2] as f64 * t) as u8,
            ];
            c.set(x as i64, y as i64, px);
        }
    }
    let shapes = 3 + (s % 4) as i64;
    for k in 0..shapes {
        let ks = seed(&format!("{s}-{k}"));
        let r = (w.min(h) as i64 / 8) + (ks % (w.min(h) as u64 / 6).max(1)) as i64;
        let cx = (ks >> 8) as i64 % w as i64;
        let cy = (ks >> 20) as i64 % h as i64;
        let col = color(ks >> 32);
        for y in (cy - r).max(0)..(cy + r).min(h as i64) {
            for x in (cx - r).max(0)..(cx + r).min(w as i64) {
                if (x - cx).pow(2) + (y - cy).pow(2) <= r * r {
                    c.set(x, y, col);
                }
            }
        }
    }
    c.png()
}

/// A screenshot-like picture of a page: a title bar and one bar per line of text.
pub fn page_png(url: &str, title: &str, text: &str) -> Vec<u8> {
    let (w, h) = (320u32, 200u32);
    let mut c = Canvas::new(w, h, [255, 255, 255]);
    c.rect(0, 0, w as i64, 24, color(seed(url)));
    c.rect(
        8,
        8,
        (title.chars().count() as i64 * 5).min(300),
        8,
        [255, 255, 255],
    );
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut y = 34i64;
    for line in words.chunks(8).take(16) {
        let len: i64 = line.iter().map(|w| w.chars().count() as i64 + 1).sum();
        c.rect(8, y, (len * 4).min(300), 6, [120, 120, 130]);
        y += 10;
    }
    c.png()
}

/// Sample rate of speech.
pub const SPEECH_RATE: u32 = 24_000;

/// Deterministic mono PCM16 "speech" for `text`: one tone per word, pitch from the word and voice.
pub fn speech_samples(text: &str, voice: &str) -> Vec<i16> {
    let base = 110.0 + (seed(voice) % 120) as f64;
    let mut out = Vec::new();
    let rate = SPEECH_RATE as f64;
    let words: Vec<&str> = text.split_whitespace().collect();
    for w in words.iter().take(2000) {
        let f = base + (seed(w) % 300) as f64;
        let n = (0.06 * rate * (w.chars().count().clamp(1, 12) as f64)) as usize;
        for i in 0..n {
            let t = i as f64 / rate;
            let env = (std::f64::consts::PI * i as f64 / n as f64).sin();
            let v = (2.0 * std::f64::consts::PI * f * t).sin() * env * 8000.0;
            out.push(v as i16);
        }
        out.extend(std::iter::repeat_n(0i16, (0.05 * rate) as usize));
    }
    if out.is_empty() {
        out = vec![0; (0.5 * rate) as usize];
    }
    out
}

/// Little-endian bytes of samples.
pub fn pcm16_bytes(samples: &[i16]) -> Vec<u8> {
    samples.iter().flat_map(|s| s.to_le_bytes()).collect()
}

/// A WAV file (PCM16 mono) carrying `comment` in a `LIST/INFO/ICMT` chunk (UTF-8, NUL-padded to
/// an even length).
pub fn wav(samples: &[i16], rate: u32, comment: &str) -> Vec<u8> {
    let data = pcm16_bytes(samples);
    let mut icmt = comment.as_bytes().to_vec();
    if icmt.len() % 2 == 1 {
        icmt.push(0);
    }
    let list_len = 4 + 8 + icmt.len();
    let mut out = Vec::with_capacity(44 + list_len + 8 + data.len());
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&((4 + 24 + 8 + list_len + 8 + data.len()) as u32).to_le_bytes());
    out.extend_from_slice(b"WAVE");
    out.extend_from_slice(b"fmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"LIST");
    out.extend_from_slice(&(list_len as u32).to_le_bytes());
    out.extend_from_slice(b"INFO");
    out.extend_from_slice(b"ICMT");
    out.extend_from_slice(&(icmt.len() as u32).to_le_bytes());
    out.extend_from_slice(&icmt);
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&data);
    out
}

/// What a WAV file says about itself: (ICMT text, duration in seconds).
pub fn read_wav(bytes: &[u8]) -> Option<(Option<String>, f64)> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return None;
    }
    let mut pos = 12;
    let mut comment = None;
    let mut byte_rate = 0u32;
    let mut data_len = 0usize;
    while pos + 8 <= bytes.len() {
        let id = &bytes[pos..pos + 4];
        let len = u32::from_le_bytes(bytes[pos + 4..pos + 8].try_into().ok()?) as usize;
        let body_end = (pos + 8 + len).min(bytes.len());
        let body = &bytes[pos + 8..body_end];
        match id {
            b"fmt " if body.len() >= 12 => {
                byte_rate = u32::from_le_bytes(body[8..12].try_into().ok()?);
            }
            b"data" => data_len = body.len(),
            b"LIST" if body.len() >= 4 && &body[0..4] == b"INFO" => {
                let mut p = 4;
                while p + 8 <= body.len() {
                    let sid = &body[p..p + 4];
                    let slen = u32::from_le_bytes(body[p + 4..p + 8].try_into().ok()?) as usize;
                    let end = (p + 8 + slen).min(body.len());
                    if sid == b"ICMT" {
                        let raw = &body[p + 8..end];
                        let trimmed: &[u8] = match raw.iter().rposition(|b| *b != 0) {
                            Some(last) => &raw[..=last],
                            None => &[],
                        };
                        comment = Some(String::from_utf8_lossy(trimmed).into_owned());
                    }
                    p = end + (slen % 2);
                }
            }
            _ => {}
        }
        pos = body_end + (len % 2);
    }
    let secs = if byte_rate > 0 {
        data_len as f64 / byte_rate as f64
    } else {
        0.0
    };
    Some((comment, secs))
}

/// Silent MPEG-1 Layer III, 32 kHz mono 32 kbit/s, with an ID3v2.3 title (`TIT2`) naming the
/// mood. Every frame is a valid frame with zeroed side information (silence).
pub fn silent_mp3(seconds: f64, title: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let text: Vec<u8> = std::iter::once(3u8) // UTF-8
        .chain(title.as_bytes().iter().copied())
        .collect();
    let mut frame = Vec::new();
    frame.extend_from_slice(b"TIT2");
    frame.extend_from_slice(&(text.len() as u32).to_be_bytes());
    frame.extend_from_slice(&[0, 0]);
    frame.extend_from_slice(&text);
    let size = frame.len() as u32;
    out.extend_from_slice(b"ID3");
    out.extend_from_slice(&[3, 0, 0]);
    out.extend_from_slice(&[
        ((size >> 21) & 0x7f) as u8,
        ((size >> 14) & 0x7f) as u8,
        ((size >> 7) & 0x7f) as u8,
        (size & 0x7f) as u8,
    ]);
    out.extend_from_slice(&frame);
    // 1152 samples per frame at 32 kHz; 144 * 32000 / 32000 = 144 bytes per frame.
    let frames = ((seconds * 32_000.0) / 1152.0).ceil().max(1.0) as usize;
    let mut f = vec![0u8; 144];
    f[..4].copy_from_slice(&[0xFF, 0xFB, 0x18, 0xC4]);
    for _ in 0..frames {
        out.extend_from_slice(&f);
    }
    out
}

/// A playable H.264 (lossless PCM macroblocks, baseline) MP4: a bar sweeping across colors from
/// the prompt, 8 frames a second.
pub fn video_mp4(prompt: &str, seconds: u32) -> Vec<u8> {
    use less_avc::ycbcr_image::{DataPlane, Planes, YCbCrImage};
    let (w, h) = (96u32, 64u32);
    let fps = 8u32;
    let frames = (seconds.clamp(1, 20) * fps) as usize;
    let s = seed(prompt);
    let bg_y = 40 + (s % 120) as u8;
    let cb = 64 + ((s >> 8) % 128) as u8;
    let cr = 64 + ((s >> 16) % 128) as u8;
    let mut nals: Vec<Vec<u8>> = Vec::new();
    let mut sps = Vec::new();
    let mut pps = Vec::new();
    let mut encoder: Option<less_avc::LessEncoder> = None;
    for i in 0..frames {
        let mut y = vec![bg_y; (w * h) as usize];
        let bar = (i as u32 * 4) % w;
        for row in 0..h {
            for col in bar..(bar + 12).min(w) {
                y[(row * w + col) as usize] = 235;
            }
        }
        let u = vec![cb; (w * h / 4) as usize];
        let v = vec![cr; (w * h / 4) as usize];
        let img = YCbCrImage {
            planes: Planes::YCbCr((
                DataPlane {
                    data: &y,
                    stride: w as usize,
                    bit_depth: less_avc::BitDepth::Depth8,
                },
                DataPlane {
                    data: &u,
                    stride: (w / 2) as usize,
                    bit_depth: less_avc::BitDepth::Depth8,
                },
                DataPlane {
                    data: &v,
                    stride: (w / 2) as usize,
                    bit_depth: less_avc::BitDepth::Depth8,
                },
            )),
            width: w,
            height: h,
        };
        match encoder.as_mut() {
            None => {
                let Ok((initial, enc)) = less_avc::LessEncoder::new(&img) else {
                    return Vec::new();
                };
                sps = initial.sps.to_nal_unit();
                pps = initial.pps.to_nal_unit();
                nals.push(initial.frame.to_nal_unit());
                encoder = Some(enc);
            }
            Some(enc) => match enc.encode(&img) {
                Ok(n) => nals.push(n.to_nal_unit()),
                Err(_) => return Vec::new(),
            },
        }
    }
    mux_mp4(w, h, fps, &sps, &pps, &nals).unwrap_or_default()
}

fn mux_mp4(
    w: u32,
    h: u32,
    fps: u32,
    sps: &[u8],
    pps: &[u8],
    frames: &[Vec<u8>],
) -> Result<Vec<u8>, mp4::Error> {
    use mp4::{AvcConfig, MediaConfig, Mp4Config, Mp4Sample, Mp4Writer, TrackConfig, TrackType};
    use std::str::FromStr;
    let brand = |s: &str| mp4::FourCC::from_str(s);
    let config = Mp4Config {
        major_brand: brand("isom")?,
        minor_version: 512,
        compatible_brands: vec![
            brand("isom")?,
            brand("iso2")?,
            brand("avc1")?,
            brand("mp41")?,
        ],
        timescale: 1000,
    };
    let mut writer = Mp4Writer::write_start(std::io::Cursor::new(Vec::new()), &config)?;
    writer.add_track(&TrackConfig {
        track_type: TrackType::Video,
        timescale: fps * 100,
        language: "und".to_owned(),
        media_conf: MediaConfig::AvcConfig(AvcConfig {
            width: w as u16,
            height: h as u16,
            seq_param_set: sps.to_vec(),
            pic_param_set: pps.to_vec(),
        }),
    })?;
    for (i, nal) in frames.iter().enumerate() {
        let mut b = Vec::with_capacity(nal.len() + 4);
        b.extend_from_slice(&(nal.len() as u32).to_be_bytes());
        b.extend_from_slice(nal);
        writer.write_sample(
            1,
            &Mp4Sample {
                start_time: i as u64 * 100,
                duration: 100,
                rendering_offset: 0,
                is_sync: true,
                bytes: bytes::Bytes::from(b),
            },
        )?;
    }
    writer.write_end()?;
    Ok(writer.into_writer().into_inner())
}

/// A ZIP (stored entries) of `(name, content)` files.
pub fn zip(files: &[(String, String)]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, content) in files {
        if w.start_file(name.as_str(), opts).is_ok() {
            let _ = w.write_all(content.as_bytes());
        }
    }
    w.finish().map(|c| c.into_inner()).unwrap_or_default()
}

/// Text of a PDF: literal strings shown by `Tj`/`TJ` in its content streams (Flate-decoded when
/// compressed). Good for simple PDFs; `None` when nothing is found.
pub fn pdf_text(bytes: &[u8]) -> Option<String> {
    use std::io::Read;
    let mut streams: Vec<Vec<u8>> = Vec::new();
    let mut pos = 0;
    while let Some(start) = find(bytes, b"stream", pos) {
        let mut s = start + 6;
        if bytes.get(s) == Some(&b'\r') {
            s += 1;
        }
        if bytes.get(s) == Some(&b'\n') {
            s += 1;
        }
        let Some(end) = find(bytes, b"endstream", s) else {
            break;
        };
        let raw = &bytes[s..end];
        let mut dec = Vec::new();
        if flate2::read::ZlibDecoder::new(raw)
            .read_to_end(&mut dec)
            .is_ok()
            && !dec.is_empty()
        {
            streams.push(dec);
        } else {
            streams.push(raw.to_vec());
        }
        pos = end + 9;
    }
    let re = regex::bytes::Regex::new(r"\(((?:\\.|[^\\)])*)\)\s*Tj|\[((?:[^\]])*)\]\s*TJ").ok()?;
    let lit = regex::bytes::Regex::new(r"\(((?:\\.|[^\\)])*)\)").ok()?;
    let mut out = String::new();
    for s in &streams {
        for c in re.captures_iter(s) {
            if let Some(m) = c.get(1) {
                out.push_str(&unescape_pdf(m.as_bytes()));
            } else if let Some(m) = c.get(2) {
                for l in lit.captures_iter(m.as_bytes()) {
                    out.push_str(&unescape_pdf(&l[1]));
                }
            }
            out.push('\n');
        }
    }
    let out = out.trim().to_owned();
    (!out.is_empty()).then_some(out)
}

fn unescape_pdf(b: &[u8]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            i += 1;
            out.push(match b[i] {
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                other => other,
            });
        } else {
            out.push(b[i]);
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from >= hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wav_round_trip() {
        for text in ["hello", "hi", ""] {
            let w = wav(&speech_samples(text, "alloy"), SPEECH_RATE, text);
            let (c, secs) = read_wav(&w).expect("wav");
            assert_eq!(c.as_deref(), Some(text));
            assert!(secs > 0.0);
        }
    }

    #[test]
    fn mp3_frames() {
        let m = silent_mp3(1.0, "calm");
        assert!(m.starts_with(b"ID3"));
        let first = m
            .windows(2)
            .position(|w| w == [0xFF, 0xFB])
            .expect("frame sync");
        assert_eq!((m.len() - first) % 144, 0);
    }

    #[test]
    fn mp4_is_isobmff() {
        let v = video_mp4("a cat", 1);
        assert!(v.len() > 1000);
        assert_eq!(&v[4..8], b"ftyp");
        assert!(v.windows(4).any(|w| w == b"avcC"));
    }

    #[test]
    fn png_signature() {
        assert!(prompt_png("x", 0, 16, 16).starts_with(&[0x89, b'P', b'N', b'G']));
    }

    #[test]
    fn pdf_text_plain() {
        let pdf = b"%PDF-1.4\n1 0 obj<<>>stream\nBT (Build a todo app) Tj ET\nendstream\n%%EOF";
        assert_eq!(pdf_text(pdf).as_deref(), Some("Build a todo app"));
    }
}
