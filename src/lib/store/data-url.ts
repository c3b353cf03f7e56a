/** Pictures as base64 data URLs, the form backups and kit files carry them in (JSON). */

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000; // String.fromCharCode takes its arguments on the stack
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** A picture Blob as a data URL; a Blob without an image type is labelled `fallbackType`. */
export async function blobToDataUrl(blob: Blob, fallbackType: string): Promise<string> {
  const type = blob.type.startsWith('image/') ? blob.type : fallbackType;
  return `data:${type};base64,${bytesToBase64(new Uint8Array(await blob.arrayBuffer()))}`;
}

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+)(?:;[a-z-]+=[^;,]+)*;base64,([A-Za-z0-9+/]+={0,2})$/i;

/** A base64 data URL's type and bytes; null when the string is not one, or holds no bytes. */
export function dataUrlBytes(url: string): { type: string; bytes: Uint8Array<ArrayBuffer> } | null {
  const match = DATA_URL.exec(url);
  if (!match) return null;
  let binary: string;
  try {
    binary = atob(match[2] ?? '');
  } catch {
    return null;
  }
  if (binary.length === 0) return null;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { type: match[1] ?? '', bytes };
}

/** A base64 data URL as a Blob of its type; null when the string is not one. */
export function dataUrlToBlob(url: string): Blob | null {
  const decoded = dataUrlBytes(url);
  return decoded && new Blob([decoded.bytes], { type: decoded.type });
}

const PICTURE_SIGNATURES: ReadonlyArray<readonly (number | null)[]> = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50], // WebP: RIFF....WEBP
  [0x47, 0x49, 0x46, 0x38], // GIF8
];

/**
 * Whether bytes begin as a PNG, JPEG, WebP or GIF file does: the pictures the app writes and a
 * browser decodes. Checked where a picture cannot be decoded yet (a backup, before its one write).
 */
export function looksLikePicture(bytes: Uint8Array): boolean {
  return PICTURE_SIGNATURES.some((sig) => bytes.length >= sig.length && sig.every((b, i) => b === null || bytes[i] === b));
}
