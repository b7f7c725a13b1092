/**
 * One conversation-tools listing for the app and the CLI (`services/conversation-tools.ts`): for
 * the same conversation, `aivory conversations tools ID --json` (the real CLI) gives exactly the
 * rows of the host's `conversations.tools` — MCP tools included, decided with the model's MCP
 * defaults and the conversation's switches — and lists the MCP tools from the synced catalog,
 * without connecting (the server is stopped before the CLI runs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { HostFixture } from '../support/host/host-fixture';
import { openHostFixture } from '../support/host/host-fixture';
import { cliEnv, runCli } from '../support/run-cli';

describe('the conversation-tools listing', () => {
  let server: EverythingServer | null = null;
  let fixture: HostFixture | null = null;
  afterEach(async () => {
    await server?.stop();
    await fixture?.close();
    server = null;
    fixture = null;
  });

  it('the CLI lists what the app lists for the same conversation, MCP tools included', async () => {
    server = await startEverythingServer('streamableHttp');
    fixture = openHostFixture();
    const host = fixture;
    const added = await host.value('mcp.add', {
      name: 'everything',
      icon: '🧪',
      description: 'Test utilities.',
      transport: 'streamable-http',
      url: server.url,
      headers: [],
      timeoutSeconds: 30,
    });
    const serviceId = added.service.id;
    await host.value('mcp.test', { id: serviceId });
    await host.value('mcp.sync', { id: serviceId });
    await host.value('mcp.accept', { id: serviceId });
    await host.value('mcp.setEnabled', { id: serviceId, enabled: true });
    // A model whose defaults are save_memory and no MCP service: the MCP tools are listed, off.
    const model = await host.value('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      defaultTools: ['save_memory'],
      defaultMcpServices: [],
    });
    host.app.stores.conversations.createConversation({
      id: 'conv_listing',
      title: 'Listing',
      modelId: model.id,
    });
    await host.value('conversations.setTools', {
      id: 'conv_listing',
      toggles: { everything__echo: true, use_skill: false },
    });
    const app = await host.value('conversations.tools', { id: 'conv_listing' });
    const names = app.tools.map((row) => row.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__get-sum');
    expect(app.tools.find((row) => row.name === 'everything__echo')).toMatchObject({
      on: true,
      layer: 'conversation-on',
    });
    expect(app.tools.find((row) => row.name === 'everything__get-sum')).toMatchObject({
      on: false,
      layer: 'not-model-default',
    });

    await server.stop();
    server = null;
    const cli = await runCli(
      ['conversations', 'tools', 'conv_listing', '--json'],
      cliEnv(host.app.dataDir),
    );
    expect(cli.code, cli.stderr).toBe(0);
    const listed = JSON.parse(cli.stdout) as { toggles: unknown; tools: unknown };
    expect(listed.toggles).toEqual({ everything__echo: true, use_skill: false });
    expect(listed.tools).toEqual(app.tools);

    const human = await runCli(
      ['conversations', 'tools', 'conv_listing'],
      cliEnv(host.app.dataDir),
    );
    expect(human.stdout).toMatch(/^✓ everything__echo\s+switched on for this conversation$/m);
    expect(human.stdout).toMatch(/^✗ everything__get-sum\s+not in the model's defaults$/m);
    expect(human.stdout).toMatch(/^✗ use_skill\s+switched off for this conversation$/m);
  }, 90_000);
});
