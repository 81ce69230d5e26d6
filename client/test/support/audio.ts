/**
 * A WAV file of about `bytes` bytes (PCM, 44.1 kHz stereo 16-bit, noise): audio by its bytes to
 * the service, made in memory without ffmpeg.
 */
export function wavFile(bytes: number, name = "noise.wav"): File {
  const dataSize = Math.ceil(Math.max(0, bytes - 44) / 4) * 4;
  const buffer = new ArrayBuffer(44 + dataSize);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataSize, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 2, true); // channels
  view.setUint32(24, 44_100, true);
  view.setUint32(28, 44_100 * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, dataSize, true);
  const samples = new Uint8Array(buffer, 44);
  // getRandomValues fills at most 64 KiB a call.
  for (let i = 0; i < samples.length; i += 65_536) {
    crypto.getRandomValues(samples.subarray(i, Math.min(samples.length, i + 65_536)));
  }
  return new File([new Uint8Array(buffer)], name, { type: "audio/wav" });
}
