import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "@edge-music/stack";

export interface StoredObject {
  key: string;
  size: number;
}

/** A client of the stack's S3 store itself (never through a fault proxy). */
export function storageClient(s3: S3Config): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** Every object under `prefix`, across pages, sorted by key. */
export async function listObjects(
  client: S3Client,
  bucket: string,
  prefix: string,
): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) objects.push({ key: o.Key ?? "", size: o.Size ?? -1 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects.sort((a, b) => a.key.localeCompare(b.key));
}
