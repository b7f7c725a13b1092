/**
 * Binary resource contents a model's call brought back (a `resources/read` answer, or a tool
 * result's embedded resource), saved as artifacts: named and typed as composer attachments are
 * (`resource-attachments.ts`: from the URI, typed from the bytes, never an image the bytes do not
 * confirm), at most `MAX_SAVED_RESOURCE_BYTES` per call, each noted for the model; raster images
 * are also handed on for a vision model (the orchestrator bounds them).
 */
import type { ArtifactSink, ChatImage, McpResourceContents } from '../../core/ports';
import type { ArtifactReference } from '../../../shared/turn-events';
import { formatBytes } from '../../../shared/byte-size';
import { rasterImageType } from '../mime-types';
import { blobMime, fileName } from './resource-attachments';

/** Most bytes of binary parts one call saves. */
export const MAX_SAVED_RESOURCE_BYTES = 20 * 1024 * 1024;

export interface SavedResourceFiles {
  artifacts: ArtifactReference[];
  /** One line per part, for the model: saved as which file, or why not. */
  notes: string[];
  images: ChatImage[];
}

export async function saveResourceBlobs(
  artifacts: ArtifactSink,
  conversationId: string,
  blobs: McpResourceContents['blobs'],
  fallbackUri: string,
): Promise<SavedResourceFiles> {
  const saved: SavedResourceFiles = { artifacts: [], notes: [], images: [] };
  let bytes = 0;
  for (const blob of blobs) {
    const mime = blobMime(blob.mimeType, blob.data);
    const name = fileName(blob.uri || fallbackUri, mime);
    if (bytes + blob.data.length > MAX_SAVED_RESOURCE_BYTES) {
      saved.notes.push(
        `[${name} (${formatBytes(blob.data.length)}) not saved: over ${formatBytes(MAX_SAVED_RESOURCE_BYTES)} per call]`,
      );
      continue;
    }
    bytes += blob.data.length;
    const artifact = await artifacts.save(conversationId, name, blob.data, mime);
    saved.artifacts.push(artifact);
    saved.notes.push(
      `[saved as the file ${artifact.name} (${mime}, ${formatBytes(blob.data.length)})]`,
    );
    const raster = rasterImageType(blob.data);
    if (raster.extension !== 'bin') saved.images.push({ mime: raster.mime, data: blob.data });
  }
  return saved;
}
