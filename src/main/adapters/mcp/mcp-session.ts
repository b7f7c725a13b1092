/**
 * One initialized connection (the port's McpSession) over the SDK client. Requests go through
 * `client.request` with loose result schemas, so a server's odd field fails only that field
 * (checked in mcp-listing / mcp-results), never a whole answer; tool output schemas are not
 * compiled or enforced (the model reads the text, and an untrusted schema is not worth running).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { McpError, McpUndelivered } from '../../core/ports';
import type {
  McpCallOptions,
  McpCallResult,
  McpCompletion,
  McpCompletionRef,
  McpServerFeatures,
  McpLogLevel,
  McpPromptInfo,
  McpResourceContents,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpSession,
  McpToolInfo,
  McpTransportKind,
} from '../../core/ports';
import { scopedAbort } from './mcp-abort';
import { askerOf, openQuestions } from './mcp-elicitation';
import { requiredElicitations } from './mcp-elicitation-request';
import { classifyFailure, isSdkTotalTimeout, seconds, serverErrorMessage } from './mcp-errors';
import type { FailureContext } from './mcp-errors';
import type { McpLimits } from './mcp-limits';
import type { McpLink } from './mcp-link';
import {
  collectPages,
  normalisePrompt,
  normaliseResource,
  normaliseResourceTemplate,
  toolNormaliser,
} from './mcp-listing';
import type { PagingRule } from './mcp-listing';
import {
  convertToolResult,
  linkNeededResult,
  promptText,
  resourceBlobs,
  resourceContentsText,
  resourceTexts,
  serverErrorResult,
} from './mcp-results';
import { SET_LEVEL_TIMEOUT_MS, setServerLogLevel } from './mcp-logging';
import { sendRootsChanged } from './mcp-roots';
import { oneLine } from '../../../shared/untrusted-text';

/** Any JSON object: results are checked by hand, field by field. */
const AnyResult = z.looseObject({});
type Json = z.infer<typeof AnyResult>;

/** The spec's most values in one completion answer; more are cut (and `hasMore` set). */
export const MAX_COMPLETION_VALUES = 100;
/** Longest completion value kept (a longer one is dropped: a cut value is not the server's). */
export const MAX_COMPLETION_VALUE_CHARS = 500;

/** How long close() waits for the server to acknowledge the end of its session. */
const TERMINATE_TIMEOUT_MS = 2000;

/** What a session is made of (built by the connector). */
export interface SessionParts {
  client: Client;
  link: McpLink;
  limits: McpLimits;
  kind: McpTransportKind;
  terminateSession?: () => Promise<void>;
}

/** The port's McpSession over one connected SDK client. */
export class McpClientSession implements McpSession {
  readonly serverName: string;
  readonly serverVersion: string;
  private closing: Promise<void> | null = null;
  /**
   * 2026-07-28 only: each listed tool's name and input schema, as the SDK needs them to mirror
   * the arguments a tool declares (`x-mcp-header`) as `Mcp-Param-*` headers of its call.
   */
  private definitions: Map<string, Tool> | null = null;

  constructor(private readonly parts: SessionParts) {
    const info = parts.client.getServerVersion();
    this.serverName = oneLine(typeof info?.name === 'string' ? info.name : '', 200) || 'unknown';
    this.serverVersion = oneLine(typeof info?.version === 'string' ? info.version : '', 100);
  }

  get features(): McpServerFeatures {
    const capabilities = this.parts.client.getServerCapabilities() ?? {};
    const resources = capabilities.resources as { subscribe?: unknown } | undefined;
    return {
      tools: capabilities.tools !== undefined,
      prompts: capabilities.prompts !== undefined,
      resources: resources !== undefined,
      // 2026-07-28 replaced `resources/subscribe` with `subscriptions/listen`, not used here yet.
      resourceSubscribe: resources?.subscribe === true && !this.modern,
      completions: capabilities.completions !== undefined,
    };
  }

  async complete(
    ref: McpCompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string>,
    signal: AbortSignal,
  ): Promise<McpCompletion> {
    this.assertOpen();
    if (!this.features.completions) return { values: [], hasMore: false, total: null };
    const others = Object.entries(context).filter(([name]) => name !== argument.name);
    const raw = await this.request(
      'completion/complete',
      {
        ref:
          ref.type === 'prompt'
            ? { type: 'ref/prompt', name: ref.name }
            : { type: 'ref/resource', uri: ref.uri },
        argument,
        ...(others.length > 0 ? { context: { arguments: Object.fromEntries(others) } } : {}),
      },
      signal,
    );
    return completionOf(raw);
  }

  async subscribeResource(uri: string, signal: AbortSignal): Promise<boolean> {
    if (!this.features.resourceSubscribe) return false;
    await this.request('resources/subscribe', { uri }, signal);
    return true;
  }

  async unsubscribeResource(uri: string, signal: AbortSignal): Promise<void> {
    if (!this.parts.link.isOpen || !this.features.resourceSubscribe) return;
    await this.request('resources/unsubscribe', { uri }, signal).catch(() => undefined);
  }

  onResourceUpdated(listener: (uri: string) => void): void {
    this.parts.link.addResourceUpdatedListener(listener);
  }

  private get server(): string {
    return this.parts.link.server;
  }

  /** True on a connection of the 2026-07-28 revision (negotiated with `server/discover`). */
  private get modern(): boolean {
    return this.parts.client.getProtocolEra() === 'modern';
  }

  private context(what: string, timeoutMs: number): FailureContext {
    return { phase: 'request', server: this.server, what, transport: this.parts.kind, timeoutMs };
  }

  /** A request on a connection that is no longer open was never sent: it may go again. */
  private assertOpen(): void {
    if (!this.parts.link.isOpen)
      throw new McpUndelivered('disconnected', this.parts.link.closedMessage);
  }

  /** One request with the default deadline; failures become McpErrors. */
  private async request(
    method: string,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<Json> {
    this.assertOpen();
    const timeoutMs = this.parts.limits.requestTimeoutMs;
    const scope = scopedAbort(signal);
    const settled = this.parts.link.request();
    try {
      return await this.parts.client.request({ method, params }, AnyResult, {
        signal: scope.controller.signal,
        timeout: timeoutMs,
      });
    } catch (error) {
      if (signal.aborted) throw new McpError('canceled', `${method} was canceled`);
      throw classifyFailure(error, this.context(method, timeoutMs), this.parts.link.nonce);
    } finally {
      settled();
      scope.dispose();
    }
  }

  private paged(key: PagingRule['key'], signal: AbortSignal) {
    return (cursor: string | undefined) =>
      this.request(`${key}/list`, cursor === undefined ? undefined : { cursor }, signal);
  }

  /** Whether the server offers `name` (a closed session throws instead). */
  private capability(name: 'tools' | 'prompts' | 'resources'): boolean {
    this.assertOpen();
    return this.parts.client.getServerCapabilities()?.[name] !== undefined;
  }

  async listTools(signal: AbortSignal): Promise<McpToolInfo[]> {
    if (!this.capability('tools')) return [];
    const rule: PagingRule = {
      key: 'tools',
      max: this.parts.limits.maxTools,
      overflow: 'refuse',
      server: this.server,
    };
    if (!this.modern)
      return collectPages(this.paged('tools', signal), rule, toolNormaliser(this.server));
    // 2026-07-28: the SDK walks the pages itself, leaving out tools whose `x-mcp-header`
    // declarations are invalid (SEP-2243); the aggregate is checked here as one page.
    const listed = await this.sdkRequest('tools/list', signal, (options) =>
      this.parts.client.listTools(undefined, { ...options, cacheMode: 'bypass' }),
    );
    const tools = await collectPages(
      () => Promise.resolve(listed as unknown as Json),
      rule,
      toolNormaliser(this.server),
    );
    this.definitions = new Map();
    for (const tool of Array.isArray(listed.tools) ? listed.tools.slice(0, rule.max) : [])
      this.definitions.set(tool.name, { name: tool.name, inputSchema: tool.inputSchema } as Tool);
    return tools;
  }

  /** One request through an SDK method, with the default deadline; failures become McpErrors. */
  private async sdkRequest<T>(
    what: string,
    signal: AbortSignal,
    run: (options: { signal: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    this.assertOpen();
    const timeoutMs = this.parts.limits.requestTimeoutMs;
    const scope = scopedAbort(signal);
    const settled = this.parts.link.request();
    try {
      return await run({ signal: scope.controller.signal, timeout: timeoutMs });
    } catch (error) {
      if (signal.aborted) throw new McpError('canceled', `${what} was canceled`);
      throw classifyFailure(error, this.context(what, timeoutMs), this.parts.link.nonce);
    } finally {
      settled();
      scope.dispose();
    }
  }

  /** 2026-07-28: the tool's listed definition (listing the tools once when none is known). */
  private async definition(name: string, signal: AbortSignal): Promise<Tool | undefined> {
    if (this.definitions === null) await this.listTools(signal).catch(() => undefined);
    return this.definitions?.get(name);
  }

  /**
   * One tools/call; when the server answers "URL elicitation required" (-32042), each page it
   * names is shown to the user (the same URL card, at most MAX_REQUIRED_ELICITATIONS), and once
   * the user has finished with all of them (or the server said each is complete) the call is tried
   * again, once. Otherwise the model reads that the user must open a link.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<McpCallResult> {
    let required: UrlRequired;
    try {
      return await this.attempt(name, args, options);
    } catch (error) {
      if (!(error instanceof UrlRequired)) throw error;
      required = error;
    }
    const visited = await this.visit(required.data, options);
    if (visited !== null) return linkNeededResult(visited, options.maxOutputChars);
    try {
      return await this.attempt(name, args, options);
    } catch (error) {
      if (!(error instanceof UrlRequired)) throw error;
      return linkNeededResult(
        'The MCP server still needs the user to open a link after they finished; the call was tried again once.',
        options.maxOutputChars,
      );
    }
  }

  /** Shows each required page; null when the user finished them all, else why not (for the model). */
  private async visit(data: unknown, options: McpCallOptions): Promise<string | null> {
    let pages;
    try {
      pages = requiredElicitations(data);
    } catch (error) {
      const why = error instanceof Error ? oneLine(error.message, 300) : 'unreadable';
      return `The MCP server requires the user to open a link first, but it could not be shown (${why}).`;
    }
    const origins = [...new Set(pages.map((page) => new URL(page.url ?? '').origin))].join(', ');
    const needed = `The MCP server needs the user to open a link (${origins}) before this tool can run, which you cannot do for them`;
    const ask = askerOf(this.parts.client);
    if (ask === undefined) return `${needed}; nobody could be asked here.`;
    for (const page of pages) {
      if (options.signal.aborted) throw new McpError('canceled', 'the call was canceled');
      const answer = await ask(page, options.signal);
      if (options.signal.aborted) throw new McpError('canceled', 'the call was canceled');
      if (answer.action !== 'accept')
        return `${needed}; the user did not (${answer.action === 'decline' ? 'declined' : 'canceled'}). Tell the user.`;
    }
    return null;
  }

  private async attempt(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<McpCallResult> {
    this.assertOpen();
    const what = `MCP tool "${oneLine(name, 80)}"`;
    const total = Math.max(1, options.maxTotalTimeoutMs);
    const timeoutMs = Math.max(1, Math.min(options.timeoutMs, total));
    // The SDK checks the total only when progress arrives; this timer holds it in any case.
    const scope = scopedAbort(options.signal);
    let overTotal = false;
    const timer = setTimeout(() => {
      overTotal = true;
      scope.controller.abort();
    }, total);
    // The deadline without progress is held here, not by the SDK: it restarts on each progress
    // report and pauses while the user answers a question of the server (elicitation).
    const questions = openQuestions(this.parts.client);
    let idle = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(idleTimer);
      idleTimer = questions.waiting
        ? undefined
        : setTimeout(() => {
            idle = true;
            scope.controller.abort();
          }, timeoutMs);
    };
    arm();
    const stopWatching = questions.onChange(arm);
    const settled = this.parts.link.request();
    try {
      const requestOptions = {
        signal: scope.controller.signal,
        // Past the total timer above, so that one always speaks first.
        timeout: total + 1000,
        onprogress: (progress: { progress: number; total?: number; message?: string }) => {
          arm();
          reportProgress(options, progress);
        },
      };
      const params = { name, arguments: args };
      // 2026-07-28: through the SDK's callTool, which mirrors declared arguments as headers and
      // answers `input_required` results (elicitation, sampling, roots) with the same handlers
      // as the earlier revisions' requests. The definition given carries no output schema: the
      // structured content is checked by the service (mcp-structured.ts), never refused here.
      const definition = this.modern
        ? await this.definition(name, scope.controller.signal)
        : undefined;
      const raw: Json = this.modern
        ? ((await this.parts.client.callTool(params, {
            ...requestOptions,
            ...(definition === undefined ? {} : { toolDefinition: definition }),
          })) as unknown as Json)
        : await this.parts.client.request(
            { method: 'tools/call', params },
            AnyResult,
            requestOptions,
          );
      return convertToolResult(raw, options.maxOutputChars, this.parts.limits);
    } catch (error) {
      if (options.signal.aborted) throw new McpError('canceled', `${what} was canceled`);
      if (idle) throw new McpError('timeout', `${what} timed out after ${seconds(timeoutMs)} s`);
      if (overTotal || isSdkTotalTimeout(error)) {
        throw new McpError(
          'timeout',
          `${what} timed out after ${seconds(total)} s (its maximum, even with progress)`,
        );
      }
      if (error instanceof ProtocolError && error.code === ProtocolErrorCode.UrlElicitationRequired)
        throw new UrlRequired(error.data);
      const serverMessage = serverErrorMessage(error, this.parts.link.nonce);
      if (serverMessage !== null) return serverErrorResult(serverMessage, options.maxOutputChars);
      throw classifyFailure(error, this.context(what, timeoutMs), this.parts.link.nonce);
    } finally {
      settled();
      clearTimeout(timer);
      clearTimeout(idleTimer);
      stopWatching();
      scope.dispose();
    }
  }

  async listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]> {
    if (!this.capability('prompts')) return [];
    return collectPages(this.paged('prompts', signal), this.listRule('prompts'), normalisePrompt);
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    const raw = await this.request('prompts/get', { name, arguments: args }, signal);
    return promptText(raw, this.parts.limits.maxTextChars, this.parts.limits);
  }

  async listResources(signal: AbortSignal): Promise<McpResourceInfo[]> {
    if (!this.capability('resources')) return [];
    return collectPages(
      this.paged('resources', signal),
      this.listRule('resources'),
      normaliseResource,
    );
  }

  async readResource(uri: string, signal: AbortSignal): Promise<string> {
    return (await this.readResourceContents(uri, signal)).text;
  }

  async readResourceContents(uri: string, signal: AbortSignal): Promise<McpResourceContents> {
    const raw = await this.request('resources/read', { uri }, signal);
    return {
      text: resourceContentsText(raw, this.parts.limits.maxTextChars),
      blobs: resourceBlobs(raw),
      texts: resourceTexts(raw),
    };
  }

  async listResourceTemplates(signal: AbortSignal): Promise<McpResourceTemplateInfo[]> {
    if (!this.capability('resources')) return [];
    return collectPages(
      (cursor) =>
        this.request(
          'resources/templates/list',
          cursor === undefined ? undefined : { cursor },
          signal,
        ),
      this.listRule('resourceTemplates'),
      normaliseResourceTemplate,
    );
  }

  private listRule(key: 'prompts' | 'resources' | 'resourceTemplates'): PagingRule {
    return { key, max: this.parts.limits.maxListItems, overflow: 'truncate', server: this.server };
  }

  onToolsChanged(listener: () => void): void {
    this.parts.link.addToolsListener(listener);
  }

  onLibraryChanged(listener: () => void): void {
    this.parts.link.addLibraryListener(listener);
  }

  onClose(listener: (reason: string) => void): void {
    this.parts.link.addCloseListener(listener);
  }

  async setLogLevel(level: McpLogLevel): Promise<boolean> {
    this.assertOpen();
    return setServerLogLevel(
      this.parts.client,
      level,
      Math.min(this.parts.limits.requestTimeoutMs, SET_LEVEL_TIMEOUT_MS),
    );
  }

  async rootsChanged(): Promise<boolean> {
    this.assertOpen();
    const what = 'notifications/roots/list_changed';
    return sendRootsChanged(this.parts.client, (error) =>
      classifyFailure(
        error,
        this.context(what, this.parts.limits.requestTimeoutMs),
        this.parts.link.nonce,
      ),
    );
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const wasOpen = this.parts.link.isOpen;
    this.parts.link.beginClose();
    if (wasOpen && this.parts.terminateSession !== undefined) {
      await withTimeout(this.parts.terminateSession(), TERMINATE_TIMEOUT_MS);
    }
    await this.parts.client.close().catch(() => undefined);
  }
}

/** The server answered a tools/call with "URL elicitation required" (-32042). */
class UrlRequired extends Error {
  constructor(readonly data: unknown) {
    super('URL elicitation required');
  }
}

/** A `completion/complete` result, cleaned: strings only, one line, bounded, no duplicates. */
function completionOf(raw: Json): McpCompletion {
  const completion = raw['completion'] as { values?: unknown; hasMore?: unknown; total?: unknown };
  const given = Array.isArray(completion?.values) ? completion.values : [];
  const values: string[] = [];
  for (const value of given) {
    if (values.length >= MAX_COMPLETION_VALUES) break;
    if (typeof value !== 'string' || value.length > MAX_COMPLETION_VALUE_CHARS) continue;
    const clean = oneLine(value, MAX_COMPLETION_VALUE_CHARS);
    if (clean === '' || values.includes(clean)) continue;
    values.push(clean);
  }
  const total =
    typeof completion?.total === 'number' && Number.isSafeInteger(completion.total)
      ? Math.max(0, completion.total)
      : null;
  return {
    values,
    hasMore: completion?.hasMore === true || given.length > values.length,
    total,
  };
}

function reportProgress(
  options: McpCallOptions,
  progress: { progress: number; total?: number; message?: string },
): void {
  if (options.onProgress === undefined) return;
  try {
    options.onProgress({
      progress: progress.progress,
      total: progress.total,
      message: typeof progress.message === 'string' ? oneLine(progress.message, 300) : undefined,
    });
  } catch {
    // The listener's failure must not end the call.
  }
}

/** Waits for `promise` at most `ms`; never rejects. */
async function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    expired,
  ]);
  clearTimeout(timer);
}
