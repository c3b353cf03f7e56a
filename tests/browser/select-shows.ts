/** What a select's chosen option shows a player, for the big-text tests (big-text-narrow, selects-big-text). */
import type { Page } from 'playwright-core';

/**
 * The chosen option of the select `css` as a player can read it: a select drawn on the screen shows
 * what its one line holds (its width less its padding, the arrow not even counted); a select drawn
 * by a face over it, the face's text when none of it is cut.
 */
export function selectShows(page: Page, css: string): Promise<string> {
  return page.locator(css).evaluate((select: HTMLSelectElement) => {
    const text = select.selectedOptions[0]?.textContent ?? '';
    const style = getComputedStyle(select);
    if (style.opacity !== '0') {
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      let letters = 0;
      while (letters < text.length && ctx.measureText(text.slice(0, letters + 1)).width <= room) letters++;
      return text.slice(0, letters);
    }
    const face = select.parentElement!.querySelector<HTMLElement>('[data-testid="select-shown"]')!;
    const cut = face.scrollWidth > face.clientWidth || face.scrollHeight > face.clientHeight;
    // the select, invisible, must lie over the whole face for a tap on the face to open it
    const a = select.getBoundingClientRect();
    const b = face.getBoundingClientRect();
    const covers = a.left <= b.left + 1 && a.top <= b.top + 1 && a.right >= b.right - 1 && a.bottom >= b.bottom - 1;
    return cut ? '(cut)' : covers ? (face.textContent ?? '') : '(not under the select)';
  });
}
