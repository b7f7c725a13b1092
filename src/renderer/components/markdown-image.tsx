/**
 * A Markdown image as a placeholder naming the image's host: the image is requested only after a
 * click (a remote image URL can carry data out), only over https, without a referrer. Once
 * loaded, a click (or Enter) opens it in the lightbox.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useT } from '../i18n/use-t';
import { ZoomableImage } from './image-lightbox';

/** The click-to-load placeholder, then the image. */
export function ClickToLoadImage(props: { src: string; alt: string }): ReactNode {
  const t = useT();
  const [loaded, setLoaded] = useState(false);
  const host = imageHost(props.src);
  if (host === null) return <span className="image-blocked">{t('markdown.imageBlocked')}</span>;
  if (loaded)
    return (
      <ZoomableImage
        image={{
          src: props.src,
          alt: props.alt,
          download: { href: props.src, name: imageFileName(props.src) },
        }}
      >
        <img
          className="markdown-image"
          src={props.src}
          alt={props.alt}
          referrerPolicy="no-referrer"
          data-testid="markdown-image"
        />
      </ZoomableImage>
    );
  return (
    <button
      type="button"
      className="image-placeholder"
      data-testid="image-placeholder"
      title={props.src}
      onClick={() => setLoaded(true)}
    >
      🖼 {t('markdown.loadImage', { host })}
      {props.alt ? ` — ${props.alt}` : ''}
    </button>
  );
}

/** The host of an https image URL; null for anything else (http, data:, javascript:, relative). */
export function imageHost(src: string): string | null {
  try {
    const url = new URL(src);
    return url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}

/** The last path segment of an image URL, for its download (`image` when there is none). */
function imageFileName(src: string): string {
  try {
    const name = decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
    return name === '' ? 'image' : name;
  } catch {
    return 'image';
  }
}
