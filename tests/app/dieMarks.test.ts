import { describe, expect, it } from 'vitest';
import { labelBaseline } from '../../src/app/dieMarks.ts';

describe('labelBaseline', () => {
  // a 1280×720 picture: labels of 64 px (5% of its long side), 12.8 px off their box
  const font = 64;
  const gap = 12.8;

  it('puts the face read above its die', () => {
    expect(labelBaseline({ x: 100, y: 300, w: 80, h: 80 }, 720, font, gap)).toBeCloseTo(300 - gap);
  });

  it('puts it below a die against the top edge, where above it would be cut off', () => {
    const y = labelBaseline({ x: 100, y: 20, w: 80, h: 80 }, 720, font, gap);
    expect(y).toBeCloseTo(20 + 80 + gap + 0.75 * font);
    expect(y - 0.75 * font).toBeGreaterThan(20 + 80); // clear of the box
  });

  it('puts it inside the top of a die that fills the picture, never above the picture', () => {
    const y = labelBaseline({ x: 100, y: 5, w: 700, h: 710 }, 720, font, gap);
    expect(y - 0.75 * font).toBeGreaterThanOrEqual(0);
    expect(y).toBeLessThanOrEqual(720);
  });
});
