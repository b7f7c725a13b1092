/**
 * Which engine socket and runtime setting the sidecar takes from its environment: an explicit
 * SANDBOX_DOCKER_SOCKET, else DOCKER_HOST (unix:// only), else the first socket that exists of
 * Docker's, rootless Podman's and rootful Podman's.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadSandboxConfig } from '../src/config';

const KEY = 'a-test-key-that-is-long-enough';

function socketFor(env: Record<string, string>, existing: string[] = []): string {
  return loadSandboxConfig({ SANDBOX_API_KEY: KEY, HOME: '/home/t', ...env }, (path) =>
    existing.includes(path),
  ).dockerSocket;
}

describe('engine socket', () => {
  it('an explicit SANDBOX_DOCKER_SOCKET wins over DOCKER_HOST and the defaults', () => {
    expect(
      socketFor(
        { SANDBOX_DOCKER_SOCKET: 'unix:///srv/engine.sock', DOCKER_HOST: 'unix:///other.sock' },
        ['/var/run/docker.sock'],
      ),
    ).toBe('/srv/engine.sock');
  });

  it('DOCKER_HOST=unix://… is used (Podman: unix:///run/user/1000/podman/podman.sock)', () => {
    expect(
      socketFor({ DOCKER_HOST: 'unix:///run/user/1000/podman/podman.sock' }, [
        '/var/run/docker.sock',
      ]),
    ).toBe('/run/user/1000/podman/podman.sock');
  });

  it('a DOCKER_HOST that is not a unix socket is refused with the variable named', () => {
    expect(() => socketFor({ DOCKER_HOST: 'tcp://10.0.0.5:2376' })).toThrow(ConfigError);
    expect(() => socketFor({ DOCKER_HOST: 'tcp://10.0.0.5:2376' })).toThrow(
      /DOCKER_HOST must be a unix:\/\/ socket/,
    );
  });

  it('without either: Docker’s socket, else rootless Podman’s, else rootful Podman’s', () => {
    const rootless = '/run/user/1000/podman/podman.sock';
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    expect(socketFor(env, ['/var/run/docker.sock', rootless])).toBe('/var/run/docker.sock');
    expect(socketFor(env, [rootless, '/run/podman/podman.sock'])).toBe(rootless);
    expect(socketFor(env, ['/run/podman/podman.sock'])).toBe('/run/podman/podman.sock');
    expect(socketFor({}, [rootless])).toBe('/var/run/docker.sock');
    expect(socketFor(env, [])).toBe('/var/run/docker.sock');
  });
});

describe('SANDBOX_RUNTIME', () => {
  it('is auto by default and accepts runc, runsc and auto in any case', () => {
    expect(loadSandboxConfig({ SANDBOX_API_KEY: KEY }).runtime).toBe('auto');
    for (const value of ['runc', 'RUNSC', 'auto']) {
      expect(loadSandboxConfig({ SANDBOX_API_KEY: KEY, SANDBOX_RUNTIME: value }).runtime).toBe(
        value.toLowerCase(),
      );
    }
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => loadSandboxConfig({ SANDBOX_API_KEY: KEY, SANDBOX_RUNTIME: 'kata' })).toThrow(
      /SANDBOX_RUNTIME must be runc, runsc or auto/,
    );
  });
});
