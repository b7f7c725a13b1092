/**
 * The sidecar's health report (`GET /healthz`, `SessionManager.health()`): whether the engine
 * answers, the runner image is present, runc is recent enough and the chosen runtime can be used,
 * plus the workspaces whose files could not be saved (`unsaved`).
 */
import type { DockerRuntime } from './docker-runtime';
import type { HealthReport, UnsavedWorkspace } from './sandbox-service';
import type { Session } from './session-registry';

/** runc releases before this have CVE-2024-21626 (container escape through a leaked fd). */
const MIN_SAFE_RUNC = [1, 1, 12];

export interface HealthSources {
  runtime: DockerRuntime;
  image: string;
  maxSessions: number;
  /** The live sessions, read once the engine checks are done. */
  sessions: () => Session[];
  /** Kept containers whose workspace could not be saved (see kept-containers.ts). */
  kept: () => UnsavedWorkspace[];
}

export async function sandboxHealth(sources: HealthSources): Promise<HealthReport> {
  const { runtime, image } = sources;
  const docker = await runtime.ping();
  const imagePresent = docker && (await runtime.imagePresent(image));
  const runc = docker ? await runtime.runcVersion() : null;
  const engine = docker ? await runtime.engineInfo() : null;
  const choice = docker ? await runtime.runtimeChoice() : null;
  const warnings: string[] = [];
  if (choice && !choice.ok) warnings.push(choice.error);
  if (!docker)
    warnings.push('Docker is not reachable: is the daemon running and the socket accessible?');
  else if (!imagePresent) {
    warnings.push(
      `The runner image ${image} is missing. Build it with: npx aivory sandbox image build`,
    );
  }
  if (runc && isOlderThan(runc, MIN_SAFE_RUNC)) {
    warnings.push(`runc ${runc} is older than 1.1.12 (CVE-2024-21626): update Docker/runc.`);
  }
  const chosen = choice?.ok ? choice : null;
  if (chosen) warnings.push(...chosen.warnings);
  const sessions = sources.sessions();
  return {
    ok: docker && imagePresent && chosen !== null,
    docker,
    image,
    image_present: imagePresent,
    runc_version: runc,
    engine: engine?.engine ?? null,
    engine_version: engine?.version ?? null,
    runtime: chosen?.name ?? null,
    isolation: chosen?.isolation ?? null,
    warnings,
    unsaved: unsavedWorkspaces(sessions, sources.kept()),
    sessions: sessions.length,
    max_sessions: sources.maxSessions,
  };
}

/** The workspaces whose last save failed: live sessions first, then kept containers. */
function unsavedWorkspaces(sessions: Session[], kept: UnsavedWorkspace[]): UnsavedWorkspace[] {
  return [
    ...sessions.flatMap((session) =>
      session.saves.error === null
        ? []
        : [
            {
              conversation_id: session.conversationId,
              error: session.saves.error,
              container_id: session.containerId,
              kept_since: null,
            },
          ],
    ),
    ...kept,
  ];
}

function isOlderThan(version: string, minimum: number[]): boolean {
  const parts = (version.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  for (let index = 0; index < minimum.length; index++) {
    const part = parts[index] ?? 0;
    const floor = minimum[index] ?? 0;
    if (part !== floor) return part < floor;
  }
  return false;
}
