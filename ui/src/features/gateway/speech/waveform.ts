// Audio for the player: raw PCM16 (the `pcm16` format, 24 kHz mono) read as samples and wrapped
// as WAV so the audio element can play it, and the peaks a waveform is drawn from.

export const PCM_RATE = 24_000;

/** Little-endian signed 16-bit samples as floats in -1..1. */
export function pcm16ToFloat(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  const n = Math.floor(bytes.byteLength / 2);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 1) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/** A WAV file (mono, 16-bit) around raw PCM16 bytes. */
export function wavFromPcm16(bytes: ArrayBuffer, sampleRate = PCM_RATE): ArrayBuffer {
  const data = bytes.byteLength - (bytes.byteLength % 2);
  const out = new ArrayBuffer(44 + data);
  const v = new DataView(out);
  const text = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF");
  v.setUint32(4, 36 + data, true);
  text(8, "WAVE");
  text(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  text(36, "data");
  v.setUint32(40, data, true);
  new Uint8Array(out, 44).set(new Uint8Array(bytes, 0, data));
  return out;
}

/**
 * The loudest sample (absolute) of each of `buckets` equal slices, scaled so the loudest slice
 * is 1 (all zeros for silence). Fewer samples than buckets: one peak per sample.
 */
export function computePeaks(samples: ArrayLike<number>, buckets: number): number[] {
  const count = Math.min(Math.max(1, Math.floor(buckets)), Math.max(1, samples.length));
  if (samples.length === 0) return [];
  const size = samples.length / count;
  const peaks: number[] = [];
  for (let b = 0; b < count; b += 1) {
    let max = 0;
    const end = Math.min(samples.length, Math.floor((b + 1) * size));
    for (let i = Math.floor(b * size); i < end; i += 1) {
      const s = Math.abs(samples[i] ?? 0);
      if (s > max) max = s;
    }
    peaks.push(max);
  }
  const top = Math.max(...peaks);
  return top > 0 ? peaks.map((p) => Math.round((p / top) * 1000) / 1000) : peaks.map(() => 0);
}
