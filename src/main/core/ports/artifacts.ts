/**
 * Where files land on the user's disk: produced files (python_execute, image_generate, MCP images)
 * under `artifacts/`, the user's attachments under `uploads/`. One implementation
 * (adapters/artifacts/file-artifact-sink.ts) never overwrites an earlier version.
 */
import type { ArtifactReference } from '../../../shared/turn-events';

export interface ArtifactSink {
  save(
    conversationId: string,
    name: string,
    data: Uint8Array,
    mime: string,
  ): Promise<ArtifactReference>;
}
