// An image chosen for a cover, shown before it is sent: the file input and a preview of the file.
import { useEffect, useState } from "preact/hooks";
import { Field } from "../../ui/form.tsx";

/** What the API takes as an image (recognised by its bytes there), and at most how large. */
export const IMAGE_TYPES = "image/png,image/jpeg,image/webp";
const IMAGE_MAX = 5 * 1024 * 1024;

/** Refuses, before sending it, a file the API would refuse for its size (413). */
export function checkImage(file: File): File {
  if (file.size > IMAGE_MAX) throw new Error("The picture is larger than 5 MB.");
  return file;
}

/**
 * A file input (`name` must be unique on the page) and, once a file is chosen, a preview of it
 * named by `alt`, so that the new cover is seen before it is saved.
 */
export function CoverInput({
  name,
  label,
  alt,
  onFile,
}: {
  name: string;
  label: string;
  alt: string;
  onFile: (file: File | null) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | undefined>();
  // A local blob: URL for the chosen file, revoked when replaced or left.
  useEffect(() => {
    if (!file) return setPreview(undefined);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <>
      <Field
        label={label}
        name={name}
        type="file"
        accept={IMAGE_TYPES}
        hint="PNG, JPEG or WebP, at most 5 MB."
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0] ?? null;
          setFile(chosen);
          onFile(chosen);
        }}
      />
      {preview && (
        <p class="row">
          <img class="cover" src={preview} alt={alt} width={96} height={96} />
          <span class="muted small">Saved with the rest.</span>
        </p>
      )}
    </>
  );
}
