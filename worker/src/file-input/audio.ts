// The sniffing is shared with the transcoder, which opens the source by the same verdict.
export {
  AUDIO_CONTENT_TYPES,
  AUDIO_SNIFF_BYTES,
  type AudioFormat,
  sniffAudio,
} from "@edge-music/contracts";
