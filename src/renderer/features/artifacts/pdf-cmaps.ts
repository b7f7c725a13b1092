/**
 * pdf.js's CMaps (character maps for CJK text whose font the PDF does not embed: a Chinese report
 * in STSong-Light, a Japanese one in HeiseiMin) bundled with the app, each file a lazily loaded
 * chunk of its own (a data URL in a script the app ships). pdf.js would otherwise fetch them from
 * a `cMapUrl`: the desktop's CSP allows no connection but the data files, and nothing is fetched
 * from elsewhere; without them such text is not drawn and cannot be selected.
 */

/** Every packed CMap of pdfjs-dist, by file name, loaded when a document asks for it. */
const CMAPS = import.meta.glob<string>('../../../../node_modules/pdfjs-dist/cmaps/*.bcmap', {
  query: '?inline',
  import: 'default',
});

const BY_NAME = new Map(
  Object.entries(CMAPS).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1), load]),
);

/** The base URL pdf.js is given for CMaps: never fetched, only a key for `BundledCMaps`. */
export const BUNDLED_CMAP_URL = 'bundled-cmaps:/';

/**
 * pdf.js's binary data factory (`getDocument({ BinaryDataFactory })`) answering CMaps from the
 * bundle; anything else it asks for (standard fonts, wasm) is refused, as before.
 */
export class BundledCMaps {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const load = kind === 'cMapUrl' ? BY_NAME.get(filename) : undefined;
    if (load === undefined) throw new Error(`No bundled data for ${kind} ${filename}`);
    const url = await load();
    const base64 = url.slice(url.indexOf(',') + 1);
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  }
}
