// The sniffing is shared with the transcoder, which opens the source by the same verdict.
// Its refusal names what was found and the accepted list, the upload page's hint alike.
export {
  ACCEPTED_AUDIO_LIST,
  AUDIO_CONTENT_TYPES,
  AUDIO_SNIFF_BYTES,
  type AudioFormat,
  NOT_AUDIO,
  notAudioMessage,
  sniffAudio,
} from "@edge-music/contracts";
