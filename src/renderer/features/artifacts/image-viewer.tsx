/**
 * A raster image (a plot, a generated picture) fitted to the panel, on the white backing inline
 * images keep in both themes; a click opens the lightbox for zoom. The browser loads it from the
 * host's own `/files` (served inline only when its bytes match its type).
 */
import type { ReactNode } from 'react';
import { ZoomableImage } from '../../components/image-lightbox';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { revealFile } from '../../data/files';

/** One image. */
export function ImageViewer(props: { file: ViewedFile }): ReactNode {
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  if (bridge === null) return null;
  const { path, name } = props.file;
  const src = bridge.fileUrl(path, false);
  return (
    <div className="artifact-image-frame">
      <ZoomableImage
        className="artifact-image-button"
        image={{
          src,
          alt: name,
          download: { href: bridge.fileUrl(path, true), name },
          ...(bridge.host === 'electron'
            ? { onReveal: () => void revealFile(bridge, path).catch(showError) }
            : {}),
        }}
      >
        <img className="artifact-image" data-testid="artifact-image" src={src} alt={name} />
      </ZoomableImage>
    </div>
  );
}
