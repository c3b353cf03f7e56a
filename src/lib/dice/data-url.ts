/** Pictures as base64 data URLs, the form backups and kit files carry them in (JSON). */

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000; // String.fromCharCode takes its arguments on the stack
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

const MEDIA_TYPE = /^[a-z]+\/[a-z0-9.+-]+$/;

/** A picture Blob as a data URL; a Blob without an image type is labelled `fallbackType`. */
export async function blobToDataUrl(blob: Blob, fallbackType: string): Promise<string> {
  // a Blob's type may carry parameters ("image/png;x=y"): the URL is written in the one form `imageDataUrl` keeps
  const type = blob.type.split(';')[0]!.trim().toLowerCase();
  return `data:${type.startsWith('image/') && MEDIA_TYPE.test(type) ? type : fallbackType};base64,${bytesToBase64(new Uint8Array(await blob.arrayBuffer()))}`;
}

/** Any case, optional parameters (`;charset=utf-8`), base64 only: what kit files and backups may carry. */
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+)(?:;[a-z-]+=[^;,]+)*;base64,([A-Za-z0-9+/]+={0,2})$/i;

/**
 * The one check of a data URL: its media type (lower-cased) and base64 payload; null when the
 * string is not a base64 data URL.
 */
function parseDataUrl(url: unknown): { type: string; base64: string } | null {
  if (typeof url !== 'string') return null;
  const match = DATA_URL.exec(url);
  return match ? { type: match[1]!.toLowerCase(), base64: match[2]! } : null;
}

/** The MIME type of a base64 data URL, lower-cased, or null when the string is not one. */
export function dataUrlType(url: string): string | null {
  return parseDataUrl(url)?.type ?? null;
}

/**
 * An image data URL in the one form the store keeps and a backup accepts (`data:image/png;base64,…`:
 * lower-case type, no parameters), or null when `url` is not a base64 image data URL. Why one
 * form: art accepted in one place and refused in another made whole backups unrestorable.
 */
export function imageDataUrl(url: unknown): string | null {
  const parsed = parseDataUrl(url);
  if (!parsed || !parsed.type.startsWith('image/')) return null;
  return `data:${parsed.type};base64,${parsed.base64}`;
}

/** A base64 data URL's type and bytes; null when the string is not one, or holds no bytes. */
export function dataUrlBytes(url: string): { type: string; bytes: Uint8Array<ArrayBuffer> } | null {
  const parsed = parseDataUrl(url);
  if (!parsed) return null;
  let binary: string;
  try {
    binary = atob(parsed.base64);
  } catch {
    return null;
  }
  if (binary.length === 0) return null;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { type: parsed.type, bytes };
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
