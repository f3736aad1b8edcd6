// The samples a recording captured (Web Audio's floats, -1 to 1), as the mono 16-bit little-endian
// PCM `save_recording` takes (Rust writes the WAV file around it).

/** Joins `blocks` and turns each sample into a 16-bit integer, clipped to its range. */
export function toPcm16(blocks: readonly Float32Array[]): Uint8Array {
  const total = blocks.reduce((n, b) => n + b.length, 0);
  const out = new DataView(new ArrayBuffer(total * 2));
  let at = 0;
  for (const block of blocks) {
    for (const sample of block) {
      const s = Math.max(-1, Math.min(1, sample));
      out.setInt16(at, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
      at += 2;
    }
  }
  return new Uint8Array(out.buffer);
}

/** How long `blocks` last at `sampleRate`, in seconds. */
export function durationOf(blocks: readonly Float32Array[], sampleRate: number): number {
  return blocks.reduce((n, b) => n + b.length, 0) / sampleRate;
}
