/**
 * A Markdown image as a placeholder naming the image's host: the image is requested only after a
 * click (a remote image URL can carry data out), only over https, without a referrer. Once
 * loaded, a click (or Enter) opens it in the lightbox.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useT } from '../i18n/use-t';
import { FailedIcon } from './icons';
import { ZoomableImage } from './image-lightbox';

/** The click-to-load placeholder, then the image. */
export function ClickToLoadImage(props: { src: string; alt: string }): ReactNode {
  const t = useT();
  const [loaded, setLoaded] = useState(false);
  const host = imageHost(props.src);
  if (host === null) {
    const reason = blockedReason(props.src);
    return (
      <span
        className="image-blocked"
        data-testid="image-blocked"
        data-reason={reason}
        title={props.src}
      >
        <FailedIcon size={14} />
        {props.alt !== '' && (
          <span className="image-blocked-alt">{t('image.alt', { alt: props.alt })}</span>
        )}
        <span className="image-blocked-reason">{t(BLOCKED_TEXT[reason])}</span>
      </span>
    );
  }
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

/** Why an image URL is not loaded: only https images are. */
type BlockedReason = 'http' | 'data' | 'other';

const BLOCKED_TEXT = {
  http: 'image.notLoadedHttp',
  data: 'image.notLoadedData',
  other: 'image.notLoadedOther',
} as const;

function blockedReason(src: string): BlockedReason {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(src)?.[1]?.toLowerCase();
  return scheme === 'http' ? 'http' : scheme === 'data' ? 'data' : 'other';
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
