/** English text of the image lightbox (merged into EN_MESSAGES). */
export const LIGHTBOX_EN = {
  'lightbox.open': 'View image: {name}',
  'lightbox.title': 'Image: {name}',
  'lightbox.zoomIn': 'Zoom in (+)',
  'lightbox.zoomOut': 'Zoom out (−)',
  'lightbox.fit': 'Fit to window (0)',
  'lightbox.scale': 'Zoom: {percent}%',
  'lightbox.download': 'Download',
  'lightbox.reveal': 'Show in folder',
  'lightbox.close': 'Close (Esc)',
  'lightbox.image': 'image',
} as const;
