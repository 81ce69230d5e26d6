import { mediaUrl } from "../api.ts";

/** A cover or avatar, or a neutral tile when there is none; decorative unless given `alt`. */
export function Cover({
  src,
  alt = "",
  size = 48,
}: {
  src: string | null | undefined;
  alt?: string;
  size?: number;
}) {
  const url = mediaUrl(src);
  return url ? (
    <img class="cover" src={url} alt={alt} width={size} height={size} loading="lazy" />
  ) : (
    <span
      class="cover placeholder"
      style={{ width: `${size}px`, height: `${size}px` }}
      aria-hidden="true"
    />
  );
}
