/**
 * WCAG 2 contrast ratio between two CSS colours as getComputedStyle gives them (`rgb(…)`,
 * `rgba(…)`, also `#rrggbb`). A translucent foreground is blended over the background first.
 * 4.5 is the AA minimum for body text, 3 for large text.
 */

/** A colour's red, green, blue (0–255) and alpha (0–1). */
export type Rgba = [number, number, number, number];

/** Parses `rgb(r, g, b)`, `rgba(r, g, b, a)`, `rgb(r g b / a)` or `#rrggbb`. */
export function parseColour(text: string): Rgba {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(text.trim());
  if (hex)
    return [hex[1], hex[2], hex[3]].map((part) => parseInt(part ?? '0', 16)).concat(1) as Rgba;
  const numbers = /^rgba?\(([^)]*)\)$/i
    .exec(text.trim())?.[1]
    ?.split(/[\s,/]+/)
    .filter(Boolean);
  if (!numbers || numbers.length < 3) throw new Error(`not a colour: ${text}`);
  const [r, g, b, a = '1'] = numbers.map(String);
  return [Number(r), Number(g), Number(b), a.endsWith('%') ? parseFloat(a) / 100 : Number(a)];
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of an opaque colour. */
export function luminance([r, g, b]: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** `foreground` laid over an opaque `background`. */
export function blend(foreground: Rgba, background: Rgba): Rgba {
  const a = foreground[3];
  const mix = (index: 0 | 1 | 2): number => foreground[index] * a + background[index] * (1 - a);
  return [mix(0), mix(1), mix(2), 1];
}

/** The contrast ratio (1–21) of text in `foreground` on `background`. */
export function contrastRatio(foreground: string, background: string): number {
  const back = parseColour(background);
  const front = blend(parseColour(foreground), back);
  const [lighter, darker] = [luminance(front), luminance(back)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (lighter + 0.05) / (darker + 0.05);
}
