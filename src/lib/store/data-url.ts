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
