/**
 * URLs of the built-in kits' face art (`kits/<kitId>/faces/<faceId>.svg`) for the app: the dice
 * pad draws them, and the face reader renders them onto synthetic dice as prototypes.
 * Vite-only (import.meta.glob): Node tools read the kit folder from disk instead.
 */
const urls = import.meta.glob('./kits/*/faces/*.svg', { eager: true, query: '?url', import: 'default' }) as Record<string, string>;

/** The art of one face of a built-in kit, or undefined when it has none. */
export function builtInArtUrl(kitId: string, faceId: string): string | undefined {
  return urls[`./kits/${kitId}/faces/${faceId}.svg`];
}
