/**
 * The sandbox sidecar's public entry (`@aivory/sandbox`): what the app uses to run a local
 * sidecar — its configuration, the Docker reachability checks and the sidecar itself. Everything
 * else in `src/` is the sidecar's own business.
 */
export type { SandboxConfig } from './config';
export { ConfigError, loadSandboxConfig } from './config';
export { DockerRuntime } from './docker-runtime';
export type { ShutdownReport } from './session-manager';
export type { RunningSidecar, SidecarLogger } from './start-sidecar';
export { containerNamePrefix, startSidecar } from './start-sidecar';
