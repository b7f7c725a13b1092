/**
 * Reads a PPTX deck's slides as text and pictures (in `pptx-worker.ts`; pure apart from that, so
 * unit-tested under Node): the slides in the presentation's order, each one's title (its title
 * placeholder's text), its paragraphs (text boxes, placeholders and table cells, in the order of
 * the slide's XML) and its pictures' bytes (PNG, JPEG, GIF, WebP, BMP; others are skipped). The zip
 * and XML are read as for XLSX (`office-zip.ts`: fflate and htmlparser2). Layout, themes, charts
 * and vector shapes are not drawn: drawing slides faithfully would need LibreOffice in the
 * sandbox, which the runner image does not carry. Nothing in the deck runs.
 */
import { decodedPieces, OfficeFileError, parseXml, relationships, ZipReader } from './office-zip';

export interface PptxLimits {
  /** Largest inflated slide XML (bytes). */
  maxPartBytes: number;
  maxSlides: number;
  /** Characters of text kept per slide. */
  maxSlideChars: number;
  /** Largest picture, and all pictures together (bytes). */
  maxImageBytes: number;
  maxImagesBytes: number;
  /** Bytes inflated for the whole deck (slides, their relationships, pictures). */
  maxUnzippedBytes: number;
}

export const PPTX_LIMITS: PptxLimits = {
  maxPartBytes: 32 * 1024 * 1024,
  maxSlides: 500,
  maxSlideChars: 20_000,
  maxImageBytes: 20 * 1024 * 1024,
  maxImagesBytes: 120 * 1024 * 1024,
  // The pictures' 120 MiB and far more slide XML than a real deck has (tens of KB a slide): 500
  // slides of 32 MiB each would be 16 GB of parsing for a 100 MB file of repeated markup.
  maxUnzippedBytes: 256 * 1024 * 1024,
};

export interface PptxImage {
  mime: string;
  bytes: Uint8Array;
}

export interface PptxSlide {
  title: string | null;
  paragraphs: string[];
  images: PptxImage[];
}

export interface PptxDeck {
  slides: PptxSlide[];
  /** Slides in the deck (more than `slides` past the cap). */
  slideCount: number;
  /** True when a picture was left out for its size or the total's. */
  imagesCut: boolean;
}

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/** The deck's slides (at most `maxSlides`), their text and pictures. */
export function readPptx(bytes: Uint8Array, limits: PptxLimits = PPTX_LIMITS): PptxDeck {
  const zip = new ZipReader(bytes, limits.maxPartBytes, limits.maxUnzippedBytes);
  const root = relationships(zip, '');
  const office = [...root.values()].find((entry) => entry.type.endsWith('/officeDocument'));
  const presentationPath = office?.target ?? 'ppt/presentation.xml';
  const presentation = zip.entry(presentationPath);
  if (presentation === null) throw new OfficeFileError('not a PPTX deck (no presentation part)');
  const parts = relationships(zip, presentationPath);
  const slidePaths: string[] = [];
  parseXml(decodedPieces(presentation), {
    open: (tag, attributes) => {
      if (tag !== 'sldId') return;
      const target = parts.get(attributes['r:id'] ?? '')?.target;
      if (target !== undefined) slidePaths.push(target);
    },
  });
  let imagesBytes = 0;
  let imagesCut = false;
  const slides: PptxSlide[] = [];
  for (const path of slidePaths.slice(0, limits.maxSlides)) {
    const xml = zip.entry(path);
    if (xml === null) {
      slides.push({ title: null, paragraphs: [], images: [] });
      continue;
    }
    const slideParts = relationships(zip, path);
    const slide = readSlide(xml, limits.maxSlideChars);
    const images: PptxImage[] = [];
    for (const id of slide.pictures) {
      const target = slideParts.get(id)?.target;
      const mime = IMAGE_TYPES[target?.split('.').pop()?.toLowerCase() ?? ''];
      if (target === undefined || mime === undefined) continue;
      // Pictures past their cap or the total are left out unread (by their declared size).
      const size = zip.declaredSize(target) ?? 0;
      if (size > limits.maxImageBytes || imagesBytes + size > limits.maxImagesBytes) {
        imagesCut = true;
        continue;
      }
      let image: Uint8Array | null = null;
      try {
        image = zip.entry(target, limits.maxImageBytes);
      } catch (error) {
        // A damaged picture is left out; a deck past its bounds is not shown at all.
        if (!(error instanceof OfficeFileError)) throw error;
        imagesCut = true;
      }
      if (image === null) continue;
      imagesBytes += image.length;
      images.push({ mime, bytes: image });
    }
    slides.push({ title: slide.title, paragraphs: slide.paragraphs, images });
  }
  return { slides, slideCount: slidePaths.length, imagesCut };
}

/** One slide's title, paragraphs and the relationship ids of its pictures. */
function readSlide(
  xml: Uint8Array,
  maxChars: number,
): { title: string | null; paragraphs: string[]; pictures: string[] } {
  const paragraphs: string[] = [];
  const pictures: string[] = [];
  let title: string | null = null;
  let chars = 0;
  // Shapes nest (groups); the title flag belongs to the innermost shape.
  const shapes: { title: boolean }[] = [];
  let paragraph: string[] | null = null;
  let inText = false;
  let inPicture = 0;
  parseXml(decodedPieces(xml), {
    open: (tag, attributes) => {
      if (tag === 'sp') shapes.push({ title: false });
      else if (tag === 'ph') {
        const shape = shapes.at(-1);
        if (
          shape !== undefined &&
          (attributes.type === 'title' || attributes.type === 'ctrTitle')
        ) {
          shape.title = true;
        }
      } else if (tag === 'p') paragraph = [];
      else if (tag === 't') inText = true;
      else if (tag === 'br' && paragraph !== null) paragraph.push('\n');
      else if (tag === 'pic') inPicture++;
      else if (tag === 'blip' && inPicture > 0) {
        const id = attributes['r:embed'];
        if (id !== undefined) pictures.push(id);
      }
    },
    text: (text) => {
      if (inText && paragraph !== null) paragraph.push(text);
    },
    close: (tag) => {
      if (tag === 't') inText = false;
      else if (tag === 'pic') inPicture--;
      else if (tag === 'sp') shapes.pop();
      else if (tag === 'p' && paragraph !== null) {
        const text = paragraph.join('').trim();
        paragraph = null;
        if (text === '' || chars >= maxChars) return;
        const kept = text.slice(0, maxChars - chars);
        chars += kept.length;
        if (title === null && shapes.at(-1)?.title === true) title = kept;
        else paragraphs.push(kept);
      }
    },
  });
  return { title, paragraphs, pictures };
}
